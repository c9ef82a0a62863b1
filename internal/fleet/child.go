package fleet

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/report"
)

// A site's files in its folder (sites/<name>/).
var siteFiles = map[string]string{
	"json": "report.json", "html": "report.html", "junit": "junit.xml", "markdown": "report.md", "har": "report.har",
}

// ConsoleFile is what a site's run printed, in its folder.
const ConsoleFile = "console.txt"

// The environment variables a site's run reads its target and tokens
// from (the CLI's names for --base-url, --token and --auth-token).
const (
	EnvBaseURL   = "CONFORMANCE_BASE_URL"
	EnvToken     = "CONFORMANCE_TOKEN"
	EnvAuthToken = "CONFORMANCE_AUTH_TOKEN"
)

// killGrace is how long a site's process may go on after the interrupt
// its deadline sent it, before it is killed.
const killGrace = time.Minute

// check runs one site in a child process and returns its line. The
// site's URL and tokens reach the child through its environment, never
// its arguments (which any user of the machine can list).
func (o Options) check(ctx context.Context, site Site) summary.Site {
	line := summary.Site{Index: site.Index, Name: site.Name, BaseURL: redactedURL(site.BaseURL), Mode: effectiveMode(site, o.ReadOnly),
		Started: time.Now()}
	dir := filepath.Join(o.ReportDir, SitesDir, site.Name)
	rel := func(file string) string { return filepath.ToSlash(filepath.Join(SitesDir, site.Name, file)) }
	token, auth, err := site.Tokens()
	if err != nil {
		line.Judge(2, false, err.Error())
		return line
	}
	red := redactorFor(site.BaseURL, token, auth)
	args, err := o.prepare(dir, site)
	if err != nil {
		line.Judge(2, false, red.String(err.Error()))
		return line
	}
	out, err := os.Create(filepath.Join(dir, ConsoleFile))
	if err != nil {
		line.Judge(2, false, red.String(err.Error()))
		return line
	}
	cmd := exec.Command(o.Executable, args...)
	cmd.Env = append(append([]string{}, o.Environ...), EnvBaseURL+"="+site.BaseURL, EnvToken+"="+token)
	if auth != "" {
		cmd.Env = append(cmd.Env, EnvAuthToken+"="+auth)
	}
	cmd.Stdout, cmd.Stderr = out, out
	ownProcessGroup(cmd)
	exit := o.wait(ctx, cmd)
	_ = out.Close()
	hasReport := readReport(&line, filepath.Join(dir, siteFiles["json"]))
	tail := red.String(consoleTail(filepath.Join(dir, ConsoleFile)))
	line.Judge(exit, hasReport, tail)
	if line.Duration == 0 {
		line.Duration = report.Duration(time.Since(line.Started))
	}
	line.Reports.Console = rel(ConsoleFile)
	for _, f := range append([]string{"json"}, o.SiteReports...) {
		if _, err := os.Stat(filepath.Join(dir, siteFiles[f])); err == nil {
			setReport(&line.Reports, f, rel(siteFiles[f]))
		}
	}
	return line
}

// prepare makes the site's folder, removes the reports an earlier fleet
// run left there (a report found afterwards is this run's), and returns
// the child's arguments: the reports, the mode, the fleet's run flags,
// the site's own.
func (o Options) prepare(dir string, site Site) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range siteFiles {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	args := []string{"--json-report", filepath.Join(dir, siteFiles["json"])}
	for _, f := range o.SiteReports {
		if f != "json" {
			args = append(args, "--"+f+"-report", filepath.Join(dir, siteFiles[f]))
		}
	}
	switch effectiveMode(site, o.ReadOnly) {
	case ModeReadOnly:
		args = append(args, "--read-only")
	case ModeWritesSettings:
		args = append(args, "--allow-settings-write")
	}
	args = append(args, o.RunArgs...)
	return append(args, site.Args...), nil
}

// wait waits for the child. A cancelled context interrupts it once (it
// then stops its checks, cleans up and writes its reports, as a single
// run does on Ctrl-C); the site's deadline interrupts it, then kills it
// killGrace later. It returns the exit code, -1 when a signal ended it.
func (o Options) wait(ctx context.Context, cmd *exec.Cmd) int {
	if err := cmd.Start(); err != nil {
		_, _ = io.WriteString(cmd.Stdout, "conformance fleet: cannot start the site's run: "+err.Error()+"\n")
		return 2
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	var deadline, kill <-chan time.Time
	if o.SiteDeadline > 0 {
		t := time.NewTimer(o.SiteDeadline)
		defer t.Stop()
		deadline = t.C
	}
	cancelled := ctx.Done()
	for {
		select {
		case <-exited:
			return cmd.ProcessState.ExitCode()
		case <-cancelled:
			interrupt(cmd.Process)
			cancelled = nil
		case <-deadline:
			interrupt(cmd.Process)
			deadline, kill = nil, time.After(killGrace)
		case <-kill:
			_ = cmd.Process.Kill()
			kill = nil
		}
	}
}

// readReport fills the line from the site's JSON report; false when
// there is none to read.
func readReport(line *summary.Site, path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return line.FromReport(f) == nil
}

// consoleTail is the end of what the site's run printed.
func consoleTail(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 4 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		_, _ = f.Seek(st.Size()-tail, io.SeekStart)
	}
	b, _ := io.ReadAll(io.LimitReader(f, tail))
	return string(b)
}

func setReport(r *summary.Reports, format, path string) {
	switch format {
	case "json":
		r.JSON = path
	case "html":
		r.HTML = path
	case "junit":
		r.JUnit = path
	case "markdown":
		r.Markdown = path
	case "har":
		r.HAR = path
	}
}

// redactorFor hides the site's tokens, and a password in its URL, in
// what the fleet prints of the site's output.
func redactorFor(base, token, auth string) *redact.Redactor {
	secrets := []redact.Secret{{Value: token, Placeholder: client.TokenPlaceholder}, {Value: auth, Placeholder: client.AuthTokenPlaceholder}}
	if u, err := url.Parse(base); err == nil {
		if pw, ok := u.User.Password(); ok {
			secrets = append(secrets, redact.Secret{Value: pw, Placeholder: "xxxxx"})
		}
	}
	return redact.New(secrets...)
}

// redactedURL is the URL with a password in it shown as xxxxx.
func redactedURL(base string) string {
	if u, err := url.Parse(base); err == nil {
		return u.Redacted()
	}
	return base
}
