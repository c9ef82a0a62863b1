package verdicts

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
)

// TestTouches: which writes without an answer leave which later reads in
// doubt.
func TestTouches(t *testing.T) {
	res := func(method, url string) string {
		return resourceOf(&client.Exchange{Method: method, URL: url})
	}
	cases := []struct {
		write, read string
		want        bool
	}{
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/pages/a?token=x"), true},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/files/a"), true},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/pages?numberOfItems=-1"), true},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/tags/news"), true},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/pages/a/child"), true},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/pages/b"), false},
		{res("PUT", "http://h/api/pages/a"), res("GET", "http://h/api/settings"), false},
		{res("POST", "http://h/api/pages"), res("GET", "http://h/api/pages/b"), true},
		{res("PUT", "http://h/api/settings"), res("GET", "http://h/api/settings"), true},
		{res("PUT", "http://h/api/settings"), res("GET", "http://h/api/pages"), false},
		{res("PUT", "http://h/api/pages/caf%C3%A9"), res("GET", "http://h/api/pages/café"), true},
		{res("GET", "http://h/api/users"), res("GET", "http://h/api/users/admin"), false},
	}
	for _, c := range cases {
		if got := touches(c.write, c.read); got != c.want {
			t.Errorf("touches(%q, %q) = %v, want %v", c.write, c.read, got, c.want)
		}
	}
}
