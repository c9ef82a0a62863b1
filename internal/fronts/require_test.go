package fronts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recordingTB stands in for a test: it records Skipf and Fatalf instead of
// ending the goroutine.
type recordingTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}

func TestRequireWithoutTheBinary(t *testing.T) {
	absent := func(Kind) (string, error) {
		return findBinary(Nginx, func(string) (string, error) { return "", errors.New("not found") })
	}
	present := func(Kind) (string, error) { return "/usr/sbin/nginx", nil }
	for _, c := range []struct {
		name            string
		find            func(Kind) (string, error)
		ci              bool
		wantPath        string
		skipped, failed bool
		messageHolds    []string
	}{
		{name: "skipped outside CI", find: absent, skipped: true,
			messageHolds: []string{"nginx is not installed", "apt-get install -y nginx", "CI is not set"}},
		{name: "failed in CI", find: absent, ci: true, failed: true,
			messageHolds: []string{"CI is set", "apt-get install -y nginx", ".ci/run"}},
		{name: "installed", find: present, ci: true, wantPath: "/usr/sbin/nginx"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recordingTB{}
			if got := require(r, Nginx, c.find, c.ci); got != c.wantPath || r.skipped != c.skipped || r.failed != c.failed {
				t.Fatalf("require = %q, skipped %v, failed %v; want %q, skipped %v, failed %v",
					got, r.skipped, r.failed, c.wantPath, c.skipped, c.failed)
			}
			for _, want := range c.messageHolds {
				if !strings.Contains(r.msg, want) {
					t.Errorf("the message %q lacks %q", r.msg, want)
				}
			}
		})
	}
}

func TestFindBinaryTriesEachName(t *testing.T) {
	var tried []string
	lookPath := func(name string) (string, error) {
		tried = append(tried, name)
		if name == "/usr/sbin/httpd" {
			return name, nil
		}
		return "", errors.New("not found")
	}
	got, err := findBinary(Apache, lookPath)
	if err != nil || got != "/usr/sbin/httpd" {
		t.Fatalf("findBinary = %q, %v; want /usr/sbin/httpd (after %v)", got, err, tried)
	}
	if _, err := findBinary(Apache, func(string) (string, error) { return "", errors.New("no") }); err == nil ||
		!strings.Contains(err.Error(), "apt-get install -y apache2") {
		t.Errorf("a missing Apache gives %v, want how to install it", err)
	}
}

func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"": false, "true": true, "1": true, "false": false, "0": false, "yes": true, " TRUE ": true} {
		t.Setenv("CI", v)
		if got := InCI(); got != want {
			t.Errorf("CI=%q: InCI() = %v, want %v", v, got, want)
		}
	}
}

func TestBackendOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":         "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/sub/dir": "http://127.0.0.1:8080",
		"https://api.example":           "https://api.example",
		"127.0.0.1:8080":                "",
		"ftp://x":                       "",
		"http://a;b":                    "",
	} {
		got, err := backendOrigin(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("backendOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
