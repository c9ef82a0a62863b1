package cli

// Tests of the files that ship the suite to other people's CI: the
// composite action (action.yml), the workflows, the release configuration
// (.goreleaser.yaml) and the Dockerfile. actionlint checks the workflows'
// syntax and expressions but reads little of action.yml; these tests hold
// what the files promise: every flag reachable, tokens only through the
// environment, every action pinned, and nothing that floats to "latest".

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

var repoRoot = filepath.Join("..", "..")

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

type actionFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Inputs      map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

func readYAML(t *testing.T, path string, into any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	var a actionFile
	readYAML(t, filepath.Join(repoRoot, "action.yml"), &a)
	return a
}

func (a actionFile) step(t *testing.T, id string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("action.yml has no step with id %q", id)
	return actionStep{}
}

// rootFlags are the flags of `conformance` itself, as a user sees them.
func rootFlags() []*pflag.Flag {
	var out []*pflag.Flag
	newRoot(io.Discard, io.Discard).Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && f.Name != "version" {
			out = append(out, f)
		}
	})
	return out
}

// Every flag of the root command has an input of its own, passed through
// its CONFORMANCE_ variable, or reaches the command through the args
// input; the tokens never appear as flags.
func TestActionReachesEveryFlag(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q: a composite action runs in the caller's job", a.Runs.Using)
	}
	run := a.step(t, "run")
	call := run.Run[strings.Index(run.Run, "conformance \\"):]
	if !strings.Contains(call, `"${args[@]}"`) || a.Inputs["args"].Description == "" {
		t.Fatalf("the run step does not pass the args input to conformance:\n%s", call)
	}
	for _, f := range rootFlags() {
		in, own := a.Inputs[f.Name]
		switch {
		case own:
			if in.Description == "" {
				t.Errorf("input %s has no description", f.Name)
			}
			if got := run.Env[EnvName(f.Name)]; got != "${{ inputs."+f.Name+" }}" {
				t.Errorf("input %s reaches the suite as %s=%q, want it through the environment", f.Name, EnvName(f.Name), got)
			}
		case strings.Contains(f.Name, "token") && !strings.HasSuffix(f.Name, "-file"):
			t.Errorf("--%s has no input: a token must not go through args, where it would show as a flag", f.Name)
		}
	}
	for _, tokenFlag := range []string{"--token", "--auth-token"} {
		if regexp.MustCompile(regexp.QuoteMeta(tokenFlag) + `\b[^-]`).MatchString(run.Run) {
			t.Errorf("the run step passes %s as a flag; tokens go through the environment", tokenFlag)
		}
	}
	for _, want := range []string{"base-url", "token", "auth-token", "args", "report-dir"} {
		if _, ok := a.Inputs[want]; !ok {
			t.Errorf("no input %q", want)
		}
	}
	for _, report := range []string{"--junit-report", "--json-report", "--html-report", "--markdown-report"} {
		if !strings.Contains(call, report+` "$REPORT_DIR/`) {
			t.Errorf("the run step does not write %s into report-dir", report)
		}
	}
}

// Every input is used by some step, every output comes from a step, and
// the action does what its description promises.
func TestActionSteps(t *testing.T) {
	a := readAction(t)
	raw, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	runsPart := string(raw[strings.Index(string(raw), "\nruns:"):])
	for name, in := range a.Inputs {
		if !strings.Contains(runsPart, "inputs."+name+" ") {
			t.Errorf("input %s is used by no step", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	var summary, upload, build bool
	for _, s := range a.Runs.Steps {
		if s.Uses != "" && !pinned.MatchString(s.Uses) {
			t.Errorf("step %q uses %s: pin actions to a full commit SHA", s.Name, s.Uses)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %q has no shell: composite run steps need one", s.Name)
		}
		summary = summary || strings.Contains(s.Run, `>> "$GITHUB_STEP_SUMMARY"`)
		upload = upload || strings.HasPrefix(s.Uses, "actions/upload-artifact@")
		build = build || (strings.Contains(s.Run, `cd "$GITHUB_ACTION_PATH"`) && strings.Contains(s.Run, "go build"))
	}
	if !summary || !upload || !build {
		t.Errorf("job summary %v, artifact upload %v, build from the action's own files %v: want all", summary, upload, build)
	}
	gate := a.Runs.Steps[len(a.Runs.Steps)-1]
	if !strings.Contains(gate.Run, `exit "$CODE"`) || !strings.Contains(gate.Env["CODE"], "steps.run.outputs.exit-code") {
		t.Errorf("the last step does not exit with the suite's exit code:\n%s", gate.Run)
	}
	if a.Outputs["exit-code"].Value != "${{ steps.run.outputs.exit-code }}" {
		t.Errorf("output exit-code = %q", a.Outputs["exit-code"].Value)
	}
}

// pinned matches a `uses:` that cannot move: a full commit SHA, or a path
// in the same repository.
var pinned = regexp.MustCompile(`^(\./.*|[\w.-]+/[\w./-]+@[0-9a-f]{40})$`)

type workflowFile struct {
	On struct {
		WorkflowCall struct {
			Inputs map[string]struct {
				Required bool    `yaml:"required"`
				Default  *string `yaml:"default"`
			} `yaml:"inputs"`
		} `yaml:"workflow_call"`
	} `yaml:"on"`
	Jobs map[string]struct {
		Uses  string       `yaml:"uses"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// Workflows pin every action they use; the reusable workflow builds the
// suite at the ref it is given, which must be given.
func TestWorkflows(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, ".github", "workflows", "*.yml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("workflows: %v %v", files, err)
	}
	for _, f := range files {
		var w workflowFile
		readYAML(t, f, &w)
		for name, job := range w.Jobs {
			if job.Uses != "" && !strings.HasPrefix(job.Uses, "./") {
				t.Errorf("%s job %s calls %s: only this repository's workflows", filepath.Base(f), name, job.Uses)
			}
			for _, s := range job.Steps {
				if s.Uses != "" && !pinned.MatchString(s.Uses) {
					t.Errorf("%s job %s uses %s: pin actions to a full commit SHA", filepath.Base(f), name, s.Uses)
				}
			}
		}
	}
	var gate workflowFile
	readYAML(t, filepath.Join(repoRoot, ".github", "workflows", "conformance.yml"), &gate)
	v, ok := gate.On.WorkflowCall.Inputs["version"]
	if !ok || !v.Required || v.Default != nil {
		t.Errorf("the reusable workflow's version input must be required, without a default (it cannot see its own ref)")
	}
	var usesAction bool
	for _, s := range gate.Jobs["conformance"].Steps {
		usesAction = usesAction || s.Uses == "./.conformance-suite"
		if strings.Contains(s.Run, "go install") {
			t.Errorf("step %q installs with go install; the workflow builds the checked-out version through the action", s.Name)
		}
	}
	if !usesAction {
		t.Errorf("the reusable workflow does not run the composite action of the checked-out suite")
	}
}

// Nothing a user copies installs or runs "latest": a gate that changes
// under a project without a commit of its own is no gate.
func TestNothingFloatsToLatest(t *testing.T) {
	floating := regexp.MustCompile(`@latest\b|:latest\b|(?m)^\s*(default|version):\s*["']?latest["']?\s*$`)
	files := []string{"action.yml", "README.md", "Dockerfile", ".goreleaser.yaml", "Makefile"}
	for _, pattern := range []string{".github/workflows/*.yml", "docs/*.md"} {
		m, _ := filepath.Glob(filepath.Join(repoRoot, pattern))
		for _, f := range m {
			rel, _ := filepath.Rel(repoRoot, f)
			files = append(files, rel)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range floating.FindAllString(string(b), -1) {
			t.Errorf("%s: %q floats to whatever was released last; name a tag or a commit SHA", f, strings.TrimSpace(m))
		}
	}
	if !floating.MatchString("go install example.org/x@latest") || !floating.MatchString("  default: latest\n") {
		t.Fatal("the pattern misses a floating reference")
	}
}

// The docs name one ref scheme: the action and the reusable workflow at a
// release tag (v1, v1.2.0) or a commit SHA, and the workflow's version input
// the same ref as its @.
func TestDocsNameOneRefScheme(t *testing.T) {
	ref := regexp.MustCompile(`^(v\d+(\.\d+\.\d+)?|[0-9a-f]{40})$`)
	uses := regexp.MustCompile(`uses: conformance-suite/conformance(/\.github/workflows/conformance\.yml)?@([\w.-]+)`)
	version := regexp.MustCompile(`(?m)^[#\s]*version: (\S+)`)
	seen := map[string]bool{}
	for _, f := range []string{"README.md", "docs/ci-gate.md", "action.yml", ".github/workflows/conformance.yml"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, m := range uses.FindAllStringSubmatchIndex(text, -1) {
			r := text[m[4]:m[5]]
			if !ref.MatchString(r) {
				t.Errorf("%s: @%s is not a release tag or a commit SHA", f, r)
			}
			seen[text[m[0]:m[1]]] = true
			if m[2] < 0 { // the action
				continue
			}
			// The reusable workflow: the next version: line names the same ref.
			v := version.FindStringSubmatch(text[m[1]:])
			if v == nil || v[1] != r {
				t.Errorf("%s: conformance.yml@%s is followed by version %v, want %s", f, r, v, r)
			}
		}
	}
	var action, workflow bool
	for u := range seen {
		action = action || !strings.Contains(u, ".github")
		workflow = workflow || strings.Contains(u, ".github")
	}
	if !action || !workflow {
		t.Errorf("the docs show the action %v and the reusable workflow %v: want both", action, workflow)
	}
}

// versionFlag is the -X path that stamps the version into this package.
func versionFlag() string {
	return "-X " + reflect.TypeFor[exitError]().PkgPath() + ".version="
}

func TestGoReleaserConfig(t *testing.T) {
	_ = version // the variable the release stamps
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Env     []string `yaml:"env"`
			Flags   []string `yaml:"flags"`
			LDFlags []string `yaml:"ldflags"`
			GOOS    []string `yaml:"goos"`
			GOARCH  []string `yaml:"goarch"`
		} `yaml:"builds"`
		Checksum struct {
			Algorithm string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	readYAML(t, filepath.Join(repoRoot, ".goreleaser.yaml"), &cfg)
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf("version %d, %d builds: want the v2 schema and one build", cfg.Version, len(cfg.Builds))
	}
	b := cfg.Builds[0]
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	if got := sorted(b.GOOS); !reflect.DeepEqual(got, []string{"darwin", "linux", "windows"}) {
		t.Errorf("goos %v", got)
	}
	if got := sorted(b.GOARCH); !reflect.DeepEqual(got, []string{"amd64", "arm64"}) {
		t.Errorf("goarch %v", got)
	}
	if b.Main != "./cmd/conformance" || !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("main %q, env %v, flags %v: want ./cmd/conformance, CGO_ENABLED=0, -trimpath", b.Main, b.Env, b.Flags)
	}
	if !strings.Contains(strings.Join(b.LDFlags, " "), versionFlag()+"v{{ .Version }}") {
		t.Errorf("ldflags %v do not stamp %sv{{ .Version }}", b.LDFlags, versionFlag())
	}
	if cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum algorithm %q", cfg.Checksum.Algorithm)
	}
	// make build stamps the same variable.
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^MODULE\s*:=\s*(\S+)`).FindSubmatch(mk)
	if module == nil || !strings.Contains(string(mk), "-X $(MODULE)/internal/cli.version=") ||
		"-X "+string(module[1])+"/internal/cli.version=" != versionFlag() {
		t.Errorf("the Makefile stamps another variable than %s", versionFlag())
	}
}

func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(gomod)
	if arg := regexp.MustCompile(`(?m)^ARG GO_VERSION=(\S+)`).FindStringSubmatch(text); arg == nil || goVersion == nil || arg[1] != string(goVersion[1]) {
		t.Errorf("ARG GO_VERSION %v, go.mod's go %s: keep them equal", arg, goVersion)
	}
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllStringSubmatch(text, -1)
	if len(froms) < 2 {
		t.Fatalf("FROM lines %v: want a build stage and a runtime stage", froms)
	}
	for _, f := range froms {
		image := f[1]
		name, tag, hasTag := strings.Cut(image[strings.LastIndex(image, "/")+1:], ":")
		if !strings.Contains(image, "@sha256:") && (!hasTag || tag == "latest" || tag == "") {
			t.Errorf("FROM %s: name an exact tag or digest (%s has none)", image, name)
		}
	}
	final := text[strings.LastIndex(text, "\nFROM "):]
	user := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindStringSubmatch(final)
	if user == nil || regexp.MustCompile(`^(root|0)(:|$)`).MatchString(user[1]) {
		t.Errorf("the runtime stage's USER is %v: want a non-root user", user)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", versionFlag() + "${VERSION}", `ENTRYPOINT ["/usr/local/bin/conformance"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("the Dockerfile lacks %s", want)
		}
	}
	ignore, err := os.ReadFile(filepath.Join(repoRoot, ".dockerignore"))
	if err != nil || !strings.Contains(string(ignore), ".git") {
		t.Errorf(".dockerignore keeps .git out of the build context? %v", err)
	}
}
