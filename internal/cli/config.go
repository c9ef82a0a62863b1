package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/runner"
)

// EnvPrefix starts the environment variable of every flag:
// --base-url is CONFORMANCE_BASE_URL, --auth-token CONFORMANCE_AUTH_TOKEN.
const EnvPrefix = "CONFORMANCE_"

// EnvName returns the environment variable that sets a flag.
func EnvName(flag string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// targetFlags are the flags of every command that talks to a target.
type targetFlags struct {
	cfg           runner.Config
	tokenFile     string
	authTokenFile string
}

func (f *targetFlags) register(fs *pflag.FlagSet) {
	c := &f.cfg
	fs.StringVar(&c.BaseURL, "base-url", "", "site root, e.g. https://example.org (the API is at {base-url}/api/...)")
	fs.StringVar(&c.Token, "token", "", "API token (prefer CONFORMANCE_TOKEN or --token-file: flags show in process lists)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the API token from this file")
	fs.StringVar(&c.AuthToken, "auth-token", "", "authentication token of an Administrator (needed for writes; a run without it is read-only)")
	fs.StringVar(&f.authTokenFile, "auth-token-file", "", "read the authentication token from this file")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", client.DefaultRequestTimeout, "timeout of each request")
	fs.StringVar(&c.CACert, "ca-cert", "", "PEM file of a CA to trust besides the system roots")
	fs.BoolVar(&c.Insecure, "insecure", false, "do not verify the TLS certificate (test sites only)")
	fs.Float64Var(&c.RPS, "rps", 0, "at most this many requests per second (0: no limit)")
	fs.IntVar(&c.Retries, "retries", 2, "retries of a read answered 429 or 503 (writes are never retried)")
	fs.Int64Var(&c.MaxBody, "max-body", client.DefaultMaxBody, "bytes of a response body kept at most, and of each page object of a listing read as a stream (such a listing may be up to 1 GiB in all)")
	registerCredentials(fs, &c.Credentials)
}

// registerCredentials adds --credentials, which demo takes too.
func registerCredentials(fs *pflag.FlagSet, p *client.CredentialsPlacement) {
	fs.Var((*credentialsFlag)(p), "credentials", "where requests carry the tokens: params (the spec's query string "+
		"and body) or header (Authorization: Bearer and X-Auth-Token, kept out of URLs and access logs; only the "+
		"checks of the spec's placement rules still send parameters)")
}

// credentialsFlag is a client.CredentialsPlacement as a flag value.
type credentialsFlag client.CredentialsPlacement

func (f *credentialsFlag) String() string { return client.CredentialsPlacement(*f).String() }
func (f *credentialsFlag) Type() string   { return "params|header" }
func (f *credentialsFlag) Set(s string) error {
	p, err := client.ParseCredentialsPlacement(s)
	if err != nil {
		// pflag and applyEnv name the flag or variable and the value.
		return errors.New("want params or header")
	}
	*f = credentialsFlag(p)
	return nil
}

func (f *targetFlags) registerRun(fs *pflag.FlagSet) {
	c := &f.cfg
	fs.BoolVar(&c.ReadOnly, "read-only", false, "send no request that could change the site (write rules: not checked)")
	fs.IntVar(&c.Concurrency, "concurrency", client.DefaultConcurrency, "reads in flight at once: independent reads and the fixtures of a group of specs go out side by side; a write (any request but GET, HEAD, OPTIONS) is always alone on the wire; 1: one request at a time (--rps still caps the rate)")
	fs.BoolVar(&c.ParallelWrites, "parallel-writes", false, "let writes go out beside other requests (up to --concurrency): only for a server whose storage is transactional. RISK: on a host that keeps its content in flat files (the standard one), a request beside a write sees an empty site and a write beside another request saves it empty: the site loses its pages, tags and categories")
	fs.BoolVar(&c.ReadCache, "read-cache", true, "answer a read repeated before any write with the run's first answer (false: send every read)")
	fs.BoolVar(&c.SettingsWrites, "allow-settings-write", false, "allow PUT /api/settings (every value changed is restored and verified)")
	fs.StringVar(&c.JUnitReport, "junit-report", "", "write a JUnit XML report to this file (- for standard output)")
	fs.StringVar(&c.JSONReport, "json-report", "", "write a JSON report to this file, the input of conformance diff and --rerun-failed (- for standard output)")
	fs.StringVar(&c.HTMLReport, "html-report", "", "write a self-contained HTML report to this file, which opens offline (- for standard output)")
	fs.StringVar(&c.MarkdownReport, "markdown-report", "", "write a Markdown report to this file, for a PR comment or $GITHUB_STEP_SUMMARY (- for standard output)")
	fs.StringVar(&c.HARReport, "har-report", "", "write every request and answer of the run as a HAR 1.2 file, which browsers' developer tools open (tokens redacted; each body up to 64 KiB; - for standard output)")
	fs.StringVar(&c.RerunFailed, "rerun-failed", "", "check only the rules that failed in this earlier JSON report (and'ed with --label-filter); when a cross-cutting rule failed, every other spec runs too, to make the traffic it judges")
	fs.StringVar(&c.LabelFilter, "label-filter", "", "Ginkgo label filter, e.g. 'area:pages && !writes' or 'rule:PAGE-LIST-ALL'")
	fs.StringArrayVar(&c.Focus, "focus", nil, "run only specs whose text matches this regexp (repeatable)")
	fs.StringArrayVar(&c.Skip, "skip", nil, "skip specs whose text matches this regexp (repeatable)")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Minute, "time limit of the whole run, e.g. 30m; the specs stop early enough for cleanup to run (0: no limit)")
	fs.BoolVar(&c.FailFast, "fail-fast", false, "stop after the first failing spec (cleanup still runs)")
	fs.BoolVar(&c.Verbose, "verbose", false, "show the requests and responses of each failure (tokens redacted), and the evidence of preflight problems")
	fs.BoolVar(&c.NoColor, "no-color", false, "no colour codes in console output (also when NO_COLOR is set)")
}

// applyEnv sets every flag not given on the command line from its
// environment variable: a flag beats the environment, which beats the
// default. All problems are reported together.
func applyEnv(fs *pflag.FlagSet) []string {
	var problems []string
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			return
		}
		v, ok := os.LookupEnv(EnvName(fl.Name))
		if !ok || v == "" {
			return
		}
		if fl.Value.Type() == "stringArray" {
			for _, part := range strings.Split(v, ",") {
				if err := fl.Value.Set(strings.TrimSpace(part)); err != nil {
					problems = append(problems, fmt.Sprintf("%s: %v", EnvName(fl.Name), err))
				}
			}
			return
		}
		if fl.Value.Type() == "bool" {
			b, ok := parseBool(v)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s=%q: want 1, true, yes or on, or 0, false, no or off", EnvName(fl.Name), v))
				return
			}
			v = fmt.Sprint(b)
		}
		if err := fl.Value.Set(v); err != nil {
			problems = append(problems, fmt.Sprintf("%s=%q: %v", EnvName(fl.Name), v, err))
		}
	})
	return problems
}

// parseBool reads a yes/no environment value the ways people write one.
func parseBool(v string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// resolve reads the token files and checks the target settings people
// most often get wrong. A file given as a flag beats the environment;
// giving both the flag and the file is a mistake.
func (f *targetFlags) resolve(fs *pflag.FlagSet) []string {
	var problems []string
	read := func(path, name, what string, dst *string) {
		source := "--" + name
		if !fs.Changed(name) {
			source = EnvName(name)
		}
		if path != "" {
			if fs.Changed(name) {
				problems = append(problems, fmt.Sprintf("give either --%s or --%s-file, not both", name, name))
				return
			}
			b, err := os.ReadFile(path)
			if err != nil {
				problems = append(problems, fmt.Sprintf("--%s-file: %v", name, err))
				return
			}
			// An editor's final newline is not part of the token.
			*dst = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
			if strings.TrimSpace(*dst) == "" {
				problems = append(problems, fmt.Sprintf("--%s-file %s is empty", name, path))
				return
			}
			source = fmt.Sprintf("the file %s (--%s-file)", path, name)
		}
		// The token itself is never shown: say where it came from.
		if *dst != strings.TrimSpace(*dst) {
			problems = append(problems, fmt.Sprintf("the %s from %s has spaces, tabs or line breaks around it: remove them (the API compares tokens exactly)", what, source))
		}
	}
	read(f.tokenFile, "token", "API token", &f.cfg.Token)
	read(f.authTokenFile, "auth-token", "authentication token", &f.cfg.AuthToken)
	if p := baseURLProblem(f.cfg.BaseURL); p != "" {
		problems = append(problems, p)
	}
	return problems
}

// baseURLProblem says what is wrong with a base URL that includes the
// API's own path (https://example.org/api), the most common first mistake:
// the suite adds /api/... itself, so every request would miss the API and
// the target would seem to refuse the token.
func baseURLProblem(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "" // Validate says what is wrong with it
	}
	segments := strings.Split(u.Path, "/")
	for i, seg := range segments {
		if strings.EqualFold(seg, "api") {
			root := *u
			root.Path, root.RawPath = strings.Join(segments[:i], "/"), ""
			return fmt.Sprintf("the base URL %s includes the API's path /%s: give the site root, --base-url %s (the suite adds /api/... itself)",
				u.Redacted(), strings.Join(segments[i:], "/"), root.Redacted())
		}
	}
	return ""
}
