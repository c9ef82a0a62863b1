package runner

import (
	"bytes"
	"strings"
	"testing"
)

// A progress report as Ginkgo prints it when the run's time limit
// interrupts a spec (no-colour mode).
const progressReport = `------------------------------
• [TIMEDOUT] [0.221 seconds]
4.4 PUT /api/pages/{key} [It] [PAGE-UUID-STABLE] uuid does not change
  [TIMEDOUT] A suite timeout occurred
  In [It] at: suites/pages/writes.go:286

  This is the Progress Report generated when the suite timeout occurred:
    4.4 PUT /api/pages/{key} [PAGE-UUID-STABLE] (Spec Runtime: 114ms)
      suites/pages/writes.go:286
      In [It] (Node Runtime: 114ms)
        suites/pages/writes.go:286

      Spec Goroutine
      goroutine 119 [select]
        net/http.(*persistConn).roundTrip(0x35e0a9286640, 0x35e0a9404cd0)
          /usr/local/go/src/net/http/transport.go:2911
      > github.com/x/internal/framework.(*Target).Read(...)
          internal/framework/requests.go:17
            | func (t *Target) Read(ctx context.Context) *client.Exchange {
            > 	return t.Client.Do(ctx, client.Request{})

      Goroutines of Interest
      goroutine 7 [chan receive]
        main.main()
          main.go:3

  [FAILED] A suite timeout occurred and then the following failure was recorded:
  reading page back
------------------------------
SSSS
`

func TestDropGoroutineDumps(t *testing.T) {
	for _, chunk := range []int{1, 3, 17, len(progressReport)} {
		var out bytes.Buffer
		w := dropGoroutineDumps(&out)
		for s := progressReport; s != ""; {
			n := min(chunk, len(s))
			if _, err := w.Write([]byte(s[:n])); err != nil {
				t.Fatal(err)
			}
			s = s[n:]
		}
		got := out.String()
		for _, gone := range []string{"goroutine 119", "goroutine 7", "persistConn", "transport.go", "> github.com", "main.main", "| func"} {
			if strings.Contains(got, gone) {
				t.Errorf("chunks of %d: %q reached the console:\n%s", chunk, gone, got)
			}
		}
		for _, kept := range []string{"[TIMEDOUT] A suite timeout occurred", "(Spec Runtime: 114ms)", "      (Spec Goroutine: Go stack traces omitted)",
			"(Goroutines of Interest: Go stack traces omitted)", "  [FAILED] A suite timeout occurred", "reading page back", "SSSS\n"} {
			if !strings.Contains(got, kept) {
				t.Errorf("chunks of %d: %q was dropped:\n%s", chunk, kept, got)
			}
		}
	}
}

// TestDropGoroutineDumpsStreams checks that output without a newline
// (Ginkgo's progress dots) is not held back.
func TestDropGoroutineDumpsStreams(t *testing.T) {
	var out bytes.Buffer
	w := dropGoroutineDumps(&out)
	_, _ = w.Write([]byte("[123] Suite - 10/10 specs "))
	_, _ = w.Write([]byte("•"))
	if out.String() != "[123] Suite - 10/10 specs •" {
		t.Errorf("held back: %q", out.String())
	}
	// A line that may be a section header is held until it is known.
	_, _ = w.Write([]byte("\n  Spec Gor"))
	if strings.Contains(out.String(), "Spec Gor") {
		t.Error("a possible header was written before it was known")
	}
	_, _ = w.Write([]byte("outine is not a header here\n"))
	if !strings.Contains(out.String(), "  Spec Goroutine is not a header here\n") {
		t.Errorf("a line that is no header was lost: %q", out.String())
	}
}
