package cli

import (
	"errors"
	"fmt"
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
	fs.Int64Var(&c.MaxBody, "max-body", client.DefaultMaxBody, "bytes of a response body read at most")
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
	fs.BoolVar(&c.SettingsWrites, "allow-settings-write", false, "allow PUT /api/settings (every value changed is restored and verified)")
	fs.StringVar(&c.JUnitReport, "junit-report", "", "write a JUnit XML report to this file")
	fs.StringVar(&c.JSONReport, "json-report", "", "write a JSON report to this file (the input of conformance diff and --rerun-failed)")
	fs.StringVar(&c.HTMLReport, "html-report", "", "write a self-contained HTML report to this file (opens offline)")
	fs.StringVar(&c.MarkdownReport, "markdown-report", "", "write a Markdown report to this file (PR comment, $GITHUB_STEP_SUMMARY)")
	fs.StringVar(&c.RerunFailed, "rerun-failed", "", "check only the rules that failed in this earlier JSON report (and'ed with --label-filter); when a cross-cutting rule failed, every other spec runs too, to make the traffic it judges")
	fs.StringVar(&c.LabelFilter, "label-filter", "", "Ginkgo label filter, e.g. 'area:pages && !writes' or 'rule:PAGE-LIST-ALL'")
	fs.StringArrayVar(&c.Focus, "focus", nil, "run only specs whose text matches this regexp (repeatable)")
	fs.StringArrayVar(&c.Skip, "skip", nil, "skip specs whose text matches this regexp (repeatable)")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Minute, "timeout of the whole run (cleanup still runs)")
	fs.BoolVar(&c.FailFast, "fail-fast", false, "stop after the first failing spec (cleanup still runs)")
	fs.BoolVar(&c.Verbose, "verbose", false, "print every spec as it runs, and the evidence of preflight problems")
	fs.BoolVar(&c.NoColor, "no-color", false, "no colour codes in console output")
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
		if err := fl.Value.Set(v); err != nil {
			problems = append(problems, fmt.Sprintf("%s=%q: %v", EnvName(fl.Name), v, err))
		}
	})
	return problems
}

// resolve reads the token files. A file given as a flag beats the
// environment; giving both the flag and the file is a mistake.
func (f *targetFlags) resolve(fs *pflag.FlagSet) []string {
	var problems []string
	read := func(path, name string, dst *string) {
		if path == "" {
			return
		}
		if fs.Changed(name) {
			problems = append(problems, fmt.Sprintf("give either --%s or --%s-file, not both", name, name))
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("--%s-file: %v", name, err))
			return
		}
		*dst = strings.TrimSpace(string(b))
		if *dst == "" {
			problems = append(problems, fmt.Sprintf("--%s-file %s is empty", name, path))
		}
	}
	read(f.tokenFile, "token", &f.cfg.Token)
	read(f.authTokenFile, "auth-token", &f.cfg.AuthToken)
	return problems
}
