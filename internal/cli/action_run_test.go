package cli

// The composite action's shell steps, run here the way a GitHub runner
// runs them (bash -eo pipefail, the GITHUB_* files, the step's env with
// its ${{ }} expressions filled in), against the reference server: the
// build at the action's ref, the args input split without evaluation, the
// reports, the job summary and the exit code as the gate. What only
// GitHub can run (actions/setup-go, actions/upload-artifact, `if:`) is
// left to the project's CI workflow.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// runner is one job's worth of GitHub runner state for the action.
type actionRunner struct {
	t         *testing.T
	action    actionFile
	workspace string
	temp      string
	files     map[string]string // GITHUB_OUTPUT etc. -> path
	inputs    map[string]string
	ref       string
	path      []string // GITHUB_PATH entries, newest first
	outputs   map[string]map[string]string
}

func newActionRunner(t *testing.T, inputs map[string]string) *actionRunner {
	t.Helper()
	a := readAction(t)
	r := &actionRunner{t: t, action: a, workspace: t.TempDir(), temp: t.TempDir(), inputs: map[string]string{},
		ref: "v9.9.9-test", files: map[string]string{}, outputs: map[string]map[string]string{}}
	for name, in := range a.Inputs {
		if in.Default != nil {
			r.inputs[name] = *in.Default
		}
	}
	for k, v := range inputs {
		r.inputs[k] = v
	}
	for _, f := range []string{"GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_ENV"} {
		r.files[f] = filepath.Join(r.temp, strings.ToLower(f))
		if err := os.WriteFile(r.files[f], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand fills in the expressions the action's env blocks use.
func (r *actionRunner) expand(s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		e := expression.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			return r.inputs[strings.TrimPrefix(e, "inputs.")]
		case e == "github.action_ref":
			return r.ref
		case strings.HasPrefix(e, "steps."):
			parts := strings.Split(e, ".") // steps.ID.outputs.NAME
			return r.outputs[parts[1]][parts[3]]
		}
		r.t.Fatalf("the test cannot evaluate ${{ %s }}", e)
		return ""
	})
}

// run runs the named shell step and returns its exit code and output.
func (r *actionRunner) run(name string) (int, string) {
	r.t.Helper()
	var step *actionStep
	for i, s := range r.action.Runs.Steps {
		if s.Name == name {
			step = &r.action.Runs.Steps[i]
		}
	}
	if step == nil || step.Shell != "bash" {
		r.t.Fatalf("action.yml has no bash step %q", name)
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		r.t.Fatal(err)
	}
	output := filepath.Join(r.temp, "output-"+step.ID)
	if err := os.WriteFile(output, nil, 0o644); err != nil {
		r.t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONFORMANCE_") && !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+strings.Join(append(r.path, os.Getenv("PATH")), string(os.PathListSeparator)),
		"GITHUB_ACTION_PATH="+root, "GITHUB_WORKSPACE="+r.workspace, "RUNNER_TEMP="+r.temp, "RUNNER_OS=Linux",
		"GITHUB_OUTPUT="+output)
	for f, p := range r.files {
		env = append(env, f+"="+p)
	}
	for k, v := range step.Env {
		env = append(env, k+"="+r.expand(v))
	}
	cmd := exec.CommandContext(r.t.Context(), "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step.Run)
	cmd.Dir, cmd.Env = r.workspace, env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("step %q did not run: %v", name, err)
	}
	if step.ID != "" {
		r.outputs[step.ID] = readKeyValues(r.t, output)
	}
	b, _ := os.ReadFile(r.files["GITHUB_PATH"])
	r.path = nil
	for _, p := range strings.Fields(string(b)) {
		r.path = append([]string{p}, r.path...)
	}
	return code, string(out)
}

func readKeyValues(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// build runs the steps before the suite runs: locate and build.
func (r *actionRunner) build() {
	r.t.Helper()
	if code, out := r.run("Locate the action"); code != 0 {
		r.t.Fatalf("locate: exit %d\n%s", code, out)
	}
	code, out := r.run("Build the suite at this action's ref")
	if code != 0 || !strings.Contains(out, "conformance "+r.ref) {
		r.t.Fatalf("build: exit %d, want the version %s:\n%s", code, r.ref, out)
	}
}

// gate runs the last two steps and returns the gate's exit code.
func (r *actionRunner) gate() int {
	r.t.Helper()
	if code, out := r.run("Write the job summary"); code != 0 {
		r.t.Fatalf("summary: exit %d\n%s", code, out)
	}
	code, _ := r.run("Fail unless every selected rule passed")
	return code
}

func TestActionGatesAServerOfTheJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the suite")
	}
	ref := testkit.Reference(t)
	url, token, auth := ref.URL, ref.Token, ref.AuthToken
	r := newActionRunner(t, map[string]string{"base-url": url, "token": token, "auth-token": auth,
		"args": `--allow-settings-write --label-filter 'area:users || (area:taxonomy && !writes)'`})
	r.build()
	code, out := r.run("Run the conformance suite")
	if r.outputs["run"]["exit-code"] != "0" || code != 0 {
		t.Fatalf("run step: exit %d, exit-code output %q:\n%s", code, r.outputs["run"]["exit-code"], out)
	}
	if strings.Contains(out, token) || strings.Contains(out, auth) {
		t.Errorf("a token appears in the step's output")
	}
	dir := filepath.Join(r.workspace, r.outputs["run"]["report-dir"])
	for _, f := range []string{"junit.xml", "report.json", "report.html", "report.md"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("report %s: %v", f, err)
		}
	}
	run, err := report.ReadJSONFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if run.Meta.SuiteVersion != r.ref || run.Meta.LabelFilter != "area:users || (area:taxonomy && !writes)" ||
		run.Meta.Mode != "writes+settings" {
		t.Errorf("the report says version %q, filter %q, mode %q: the build or the args did not arrive",
			run.Meta.SuiteVersion, run.Meta.LabelFilter, run.Meta.Mode)
	}
	if code := r.gate(); code != 0 {
		t.Errorf("gate step: exit %d, want 0", code)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if summary, _ := os.ReadFile(r.files["GITHUB_STEP_SUMMARY"]); len(md) == 0 || string(summary) != string(md) {
		t.Errorf("the job summary is not the Markdown report (%d bytes, report %d)", len(summary), len(md))
	}

	// The same job, a server with a bug: the gate closes with exit 1.
	ref = testkit.Reference(t, reference.TagMissing200)
	url, token = ref.URL, ref.Token
	r.inputs = map[string]string{"base-url": url, "token": token, "args": "--read-only --label-filter area:taxonomy",
		"report-dir": "failing", "job-summary": "true"}
	if _, out := r.run("Run the conformance suite"); r.outputs["run"]["exit-code"] != "1" {
		t.Fatalf("against a mutant: exit-code %q, want 1:\n%s", r.outputs["run"]["exit-code"], out)
	}
	if code := r.gate(); code != 1 {
		t.Errorf("gate step against a mutant: exit %d, want 1", code)
	}
}

// The args input is split like a shell splits words, and nothing in it is
// evaluated; a quote left open stops the run with exit code 2.
func TestActionSplitsArgsWithoutEvaluating(t *testing.T) {
	fake := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '<%s>\\n' \"$a\"; done\n"
	if err := os.WriteFile(filepath.Join(fake, "conformance"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args string
		want []string // after the four report flags
		code string
	}{
		{`--label-filter 'area:pages && !writes' --focus "two words" plain\ escaped $HOME $(id) ` + "`id`",
			[]string{"--label-filter", "area:pages && !writes", "--focus", "two words", "plain escaped", "$HOME", "$(id)", "`id`"}, ""},
		{"   \n ", nil, ""},
		{"", nil, ""},
		{`--label-filter 'area:pages`, nil, "2"},
	} {
		r := newActionRunner(t, map[string]string{"base-url": "http://127.0.0.1:1", "token": "t", "args": tc.args})
		r.path = []string{fake}
		code, out := r.run("Run the conformance suite")
		if code != 0 {
			t.Fatalf("args %q: the step itself failed (exit %d):\n%s", tc.args, code, out)
		}
		if tc.code != "" {
			if got := r.outputs["run"]["exit-code"]; got != tc.code || strings.Contains(out, "<--junit-report>") {
				t.Errorf("args %q: exit-code %q, want %s without running the suite:\n%s", tc.args, got, tc.code, out)
			}
			continue
		}
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "<") {
				got = append(got, strings.TrimSuffix(strings.TrimPrefix(l, "<"), ">"))
			}
		}
		if len(got) < 8 {
			t.Fatalf("args %q: conformance got %q", tc.args, got)
		}
		if extra := got[8:]; !equalStrings(extra, tc.want) {
			b, _ := json.Marshal(extra)
			t.Errorf("args %q reached conformance as %s, want %q", tc.args, b, tc.want)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
