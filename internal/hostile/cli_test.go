package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestMain is selftest.Main: with selftest.EnvAsCLI set the test binary
// acts as the conformance CLI (RunSpecs can run only once per process, so
// every scenario is a subprocess), and with selftest.EnvPeakFile set it
// writes its peak memory when it ends.
func TestMain(m *testing.M) { selftest.Main(m) }

// showEnv, when set, logs every run's console output (go test -v).
const showEnv = "HOSTILE_SHOW_OUTPUT"

// hardLimit kills a CLI run that hangs: far above every scenario's bound
// (raceFactor times more under the race detector, as the bounds), so
// hitting it is a failure of the run, not of the machine.
const hardLimit = 40 * time.Second

// raceScaled is d, or d times raceFactor under the race detector.
func raceScaled(d time.Duration) time.Duration {
	if testkit.RaceEnabled {
		return time.Duration(float64(d) * raceFactor)
	}
	return d
}

// cliRun is one finished CLI subprocess.
type cliRun struct {
	Exit           int
	Stdout, Stderr string
	Took           time.Duration
	MaxRSS         int64 // peak resident memory in bytes; 0 where the platform does not say
	Dir            string
	Report         *report.Run // the --json-report, nil if none was written
}

// runCLI runs `conformance args...` with the tokens in the environment (as
// a CI would pass them), in a fresh directory, and a JSON and JUnit report
// requested there.
func runCLI(t *testing.T, token, auth string, args ...string) cliRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args = append(args, "--json-report", filepath.Join(dir, "report.json"), "--junit-report", filepath.Join(dir, "junit.xml"), "--no-color")
	ctx, cancel := context.WithTimeout(context.Background(), raceScaled(hardLimit))
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd.Env = append(selftest.Environ(), selftest.EnvAsCLI+"=1", selftest.EnvPeakFile+"="+peakFile, "CONFORMANCE_TOKEN="+token)
	if auth != "" {
		cmd.Env = append(cmd.Env, "CONFORMANCE_AUTH_TOKEN="+auth)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	res := cliRun{Took: time.Since(start), Stdout: stdout.String(), Stderr: stderr.String(), Dir: dir}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("the CLI was still running after %s (killed):\nstdout:\n%s\nstderr:\n%s", raceScaled(hardLimit), tail(res.Stdout), tail(res.Stderr))
	case errors.As(err, &exitErr):
		res.Exit = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	res.MaxRSS, _ = selftest.ReadPeak(peakFile)
	if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err == nil {
		var r report.Run
		if err := json.Unmarshal(b, &r); err != nil {
			t.Errorf("the JSON report does not parse: %v", err)
		} else {
			res.Report = &r
		}
	}
	return res
}

// stackTrace matches what a Go panic or fatal error prints, and the race
// detector's reports.
var stackTrace = regexp.MustCompile(`panic:|goroutine \d+ \[|fatal error:|runtime error:|WARNING: DATA RACE`)

// checkCommon checks what every scenario must satisfy: exit code, a
// one-sentence verdict matching want on the console and in the report, the
// time bound, no stack trace, no token anywhere, reports written.
func checkCommon(t *testing.T, r cliRun, wantExit int, want *regexp.Regexp, maxTook time.Duration, secrets ...string) {
	t.Helper()
	out := r.Stdout + r.Stderr
	if r.Exit != wantExit {
		t.Errorf("exit code %d, want %d", r.Exit, wantExit)
	}
	// The race detector slows the CPU-bound part of a run (parsing 50 MB
	// listings) several times; the bounds catch waits, which it does not
	// lengthen.
	maxTook = raceScaled(maxTook)
	if r.Took > maxTook {
		t.Errorf("the run took %s, bound %s", r.Took.Round(time.Millisecond), maxTook)
	}
	if m := stackTrace.FindString(out); m != "" {
		t.Errorf("a Go stack trace or race report reached the user (%q)", m)
	}
	verdict := lastLineMatching(r.Stdout, want)
	if verdict == "" {
		t.Errorf("no console line matches %q", want)
	}
	if r.Report == nil {
		t.Errorf("no JSON report was written")
	} else {
		if !want.MatchString(r.Report.Verdict) {
			t.Errorf("report verdict %q does not match %q", r.Report.Verdict, want)
		}
		if strings.Contains(r.Report.Verdict, "\n") {
			t.Errorf("the verdict is more than one line: %q", r.Report.Verdict)
		}
		if len(r.Report.Rules) == 0 {
			t.Errorf("the report lists no rules")
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "junit.xml")); err != nil {
		t.Errorf("no JUnit report: %v", err)
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		for _, piece := range []string{s, s[:12], s[len(s)-12:]} {
			if strings.Contains(out, piece) {
				t.Errorf("a token (%q…) appears in the console output", piece[:6])
			}
			for _, f := range []string{"report.json", "junit.xml"} {
				if b, _ := os.ReadFile(filepath.Join(r.Dir, f)); bytes.Contains(b, []byte(piece)) {
					t.Errorf("a token (%q…) appears in %s", piece[:6], f)
				}
			}
		}
	}
	if t.Failed() || os.Getenv(showEnv) != "" {
		t.Logf("exit %d after %s\nstdout (end):\n%s\nstderr:\n%s", r.Exit, r.Took.Round(time.Millisecond), tail(r.Stdout), tail(r.Stderr))
	} else {
		t.Logf("exit %d after %s, max RSS %.1f MB: %s", r.Exit, r.Took.Round(time.Millisecond), float64(r.MaxRSS)/(1<<20), verdict)
	}
}

func lastLineMatching(s string, re *regexp.Regexp) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if re.MatchString(lines[i]) {
			return lines[i]
		}
	}
	return ""
}

func tail(s string) string {
	const n = 6000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
