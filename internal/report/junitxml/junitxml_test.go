package junitxml

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// TestSuiteAsJUnitWritesIt: times in seconds with three decimals, read
// back the same; characters XML 1.0 cannot carry replaced; an empty
// skipped message without a type attribute or text.
func TestSuiteAsJUnitWritesIt(t *testing.T) {
	s := Suite{Name: "a", Time: Seconds(1500 * time.Microsecond * 83), Hostname: Host("https://site.example:8443/x"),
		Properties: Props("verdict", Safe("bad \x00 byte")),
		Cases:      []Case{{Name: "c", Skipped: &Message{Message: "not checked"}}}}
	out, err := xml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`time="0.125"`, `hostname="site.example:8443"`, `value="bad ` + "\uFFFD" + ` byte"`,
		`<skipped message="not checked"></skipped>`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s\nlacks %s", out, want)
		}
	}
	var back Suite
	if err := xml.Unmarshal(out, &back); err != nil || back.Time != Seconds(125*time.Millisecond) {
		t.Errorf("read back: time %v, err %v", time.Duration(back.Time), err)
	}
}
