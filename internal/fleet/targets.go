// Package fleet checks many sites in one command: it reads a targets file,
// picks this machine's shard of it, and runs each site as a run of its own
// in a child process of the same binary, a bounded number at a time. Each
// child is a whole single run (its own client, one write alone on its
// wire, tripwire, cleanup, reports in the site's folder); the fleet reads
// each site's JSON report as the site finishes and adds a line to the
// fleet's summary (package summary), which goes to disk, not to memory.
//
// Child processes, not goroutines: Ginkgo runs one suite per process
// (RunSpecs may be called once), and a process per site also bounds memory
// by the sites in flight and keeps a crashing site from taking the others
// down.
package fleet

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/conformance-suite/conformance/internal/client"
)

// The modes a site may be checked in, as a single run names them
// (runner.Config.Mode).
const (
	ModeReadOnly       = "read-only"
	ModeWrites         = "writes"
	ModeWritesSettings = "writes+settings"
)

// Targets is a targets file: the sites of a fleet, in the file's order.
type Targets struct {
	File   string // the file's path as given
	Digest string // sha256 of its bytes: the shards of one fleet name the same file
	Sites  []Site
}

// Site is one site of the targets file. It says where its tokens come
// from, never what they are: the tokens are read when the site starts
// (Tokens), and only its child process gets them.
type Site struct {
	Index   int // position in the targets file, from 0
	Name    string
	BaseURL string
	Mode    string
	Token   Source
	Auth    Source // empty: no authentication token (a read-only run)
	Args    []string
}

// Source is where a token comes from: an environment variable or a file.
type Source struct {
	Env  string
	File string // relative paths are resolved against the targets file's folder
}

func (s Source) empty() bool { return s.Env == "" && s.File == "" }

// String says where the token comes from, for messages.
func (s Source) String() string {
	if s.Env != "" {
		return "the environment variable " + s.Env
	}
	return "its token file"
}

// fileSite is a site as the targets file spells it.
type fileSite struct {
	Name          string   `yaml:"name"`
	BaseURL       string   `yaml:"base-url"`
	Mode          string   `yaml:"mode"`
	TokenEnv      string   `yaml:"token-env"`
	TokenFile     string   `yaml:"token-file"`
	AuthTokenEnv  string   `yaml:"auth-token-env"`
	AuthTokenFile string   `yaml:"auth-token-file"`
	Args          []string `yaml:"args"`
	// Token and AuthToken are there to refuse them with a clear sentence:
	// a targets file names where tokens come from, never the tokens.
	Token     any `yaml:"token"`
	AuthToken any `yaml:"auth-token"`
}

type fileDefaults struct {
	Mode string   `yaml:"mode"`
	Args []string `yaml:"args"`
}

type targetsFile struct {
	Defaults fileDefaults `yaml:"defaults"`
	Sites    []fileSite   `yaml:"sites"`
}

// maxTargetsFile bounds the file read: a list of sites, not a data set.
const maxTargetsFile = 16 << 20

// siteName is what a site's name may be: it names the site's report folder.
var siteName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// envName is what a token's environment variable may be called.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ReadTargets reads and checks a targets file (YAML, or JSON, which YAML
// reads too). Every problem is reported, each naming its site; the tokens'
// sources are checked (the variable set, the file readable and not empty)
// without keeping any token.
func ReadTargets(path string) (*Targets, []string) {
	raw, err := readLimited(path)
	if err != nil {
		return nil, []string{fmt.Sprintf("--targets %s: %v", path, err)}
	}
	var tf targetsFile
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&tf); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, []string{fmt.Sprintf("--targets %s is empty: it lists sites under \"sites:\"", path)}
		}
		return nil, []string{fmt.Sprintf("--targets %s: %v", path, err)}
	}
	sum := sha256.Sum256(raw)
	t := &Targets{File: path, Digest: "sha256:" + hex.EncodeToString(sum[:])}
	var problems []string
	if len(tf.Sites) == 0 {
		problems = append(problems, fmt.Sprintf("--targets %s lists no site under \"sites:\"", path))
	}
	if tf.Defaults.Mode != "" && !validMode(tf.Defaults.Mode) {
		problems = append(problems, fmt.Sprintf("defaults: mode %q: want %s, %s or %s", tf.Defaults.Mode, ModeReadOnly, ModeWrites, ModeWritesSettings))
	}
	seen := map[string]string{}
	dir := filepath.Dir(path)
	for i, entry := range tf.Sites {
		s, siteProblems := entry.site(i, tf.Defaults, dir)
		problems = append(problems, siteProblems...)
		if s.Name != "" {
			// Folders of names that differ only in case are one folder
			// on some file systems.
			if first, dup := seen[strings.ToLower(s.Name)]; dup {
				problems = append(problems, fmt.Sprintf("sites %q and %q: two sites of one name (names are report folders, compared without case)", first, s.Name))
			}
			seen[strings.ToLower(s.Name)] = s.Name
		}
		t.Sites = append(t.Sites, s)
	}
	return t, problems
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxTargetsFile+1))
	if err == nil && len(raw) > maxTargetsFile {
		err = fmt.Errorf("larger than %d MiB", maxTargetsFile>>20)
	}
	return raw, err
}

func validMode(m string) bool {
	return m == ModeReadOnly || m == ModeWrites || m == ModeWritesSettings
}

// site checks one entry and resolves it against the defaults.
func (e fileSite) site(i int, d fileDefaults, dir string) (Site, []string) {
	where := fmt.Sprintf("site %d", i+1)
	if e.Name != "" {
		where = fmt.Sprintf("site %q", e.Name)
	}
	var problems []string
	add := func(format string, a ...any) { problems = append(problems, where+": "+fmt.Sprintf(format, a...)) }
	s := Site{Index: i, Name: e.Name, BaseURL: strings.TrimSpace(e.BaseURL), Mode: e.Mode,
		Args: append(append([]string{}, d.Args...), e.Args...)}
	if s.Mode == "" {
		s.Mode = d.Mode
	}
	if s.Mode == "" {
		s.Mode = ModeReadOnly
	}
	switch {
	case e.Name == "":
		add("no name (it names the site's report folder)")
	case !siteName.MatchString(e.Name):
		add("name %q: use letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit): it names the site's report folder", e.Name)
	}
	if s.BaseURL == "" {
		add("no base-url")
	} else if _, err := client.ParseBaseURL(s.BaseURL); err != nil {
		add("%v", err)
	}
	if e.Token != nil || e.AuthToken != nil {
		add("a targets file says where each token comes from (token-env or token-file, auth-token-env or auth-token-file), never the token itself: remove it from the file")
	}
	if !validMode(s.Mode) {
		add("mode %q: want %s, %s or %s", s.Mode, ModeReadOnly, ModeWrites, ModeWritesSettings)
	}
	var p []string
	s.Token, p = source(e.TokenEnv, e.TokenFile, "token", dir, true)
	problems = append(problems, prefixed(where, p)...)
	s.Auth, p = source(e.AuthTokenEnv, e.AuthTokenFile, "auth-token", dir, false)
	problems = append(problems, prefixed(where, p)...)
	if s.Mode != ModeReadOnly && s.Auth.empty() {
		add("mode %s needs an authentication token (auth-token-env or auth-token-file)", s.Mode)
	}
	for _, name := range []Source{s.Token, s.Auth} {
		if name.empty() {
			continue
		}
		if _, err := name.read(); err != nil {
			add("%v", err)
		}
	}
	return s, problems
}

func prefixed(where string, problems []string) []string {
	for i, p := range problems {
		problems[i] = where + ": " + p
	}
	return problems
}

// source checks one token's source: a variable or a file, not both.
func source(env, file, key, dir string, required bool) (Source, []string) {
	switch {
	case env != "" && file != "":
		return Source{}, []string{fmt.Sprintf("give %s-env or %s-file, not both", key, key)}
	case env == "" && file == "":
		if required {
			return Source{}, []string{fmt.Sprintf("no %s-env or %s-file: where does its token come from?", key, key)}
		}
		return Source{}, nil
	case env != "" && !envName.MatchString(env):
		// Not quoted: it may be the token, put there by mistake.
		return Source{}, []string{fmt.Sprintf("%s-env is not the name of an environment variable (letters, digits and _): it names the variable, not the token", key)}
	}
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return Source{Env: env, File: file}, nil
}

// read returns the token: the variable's value, or the file's content
// without an editor's final line break. The errors never quote it.
func (s Source) read() (string, error) {
	var v string
	if s.Env != "" {
		var ok bool
		if v, ok = os.LookupEnv(s.Env); !ok || v == "" {
			return "", fmt.Errorf("the environment variable %s is not set", s.Env)
		}
	} else {
		b, err := readLimited(s.File)
		if err != nil {
			// The path is not quoted: it may be the token, put there by
			// mistake.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return "", fmt.Errorf("the token file it names cannot be read: %v", err)
		}
		v = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if strings.TrimSpace(v) == "" {
			return "", errors.New("the token file it names is empty")
		}
	}
	if v != strings.TrimSpace(v) {
		return "", fmt.Errorf("the token from %s has spaces, tabs or line breaks around it: remove them (the API compares tokens exactly)", s)
	}
	return v, nil
}

// Tokens reads the site's tokens as it starts; auth is empty when the
// site has no authentication token.
func (s Site) Tokens() (token, auth string, err error) {
	if token, err = s.Token.read(); err != nil {
		return "", "", err
	}
	if !s.Auth.empty() {
		if auth, err = s.Auth.read(); err != nil {
			return "", "", err
		}
	}
	return token, auth, nil
}
