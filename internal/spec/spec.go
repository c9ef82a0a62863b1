// Package spec is the catalogue of testable rules of the Content Management
// HTTP API specification (shared spec document, sections 1 to 9).
//
// It is the only place where rule wording lives. Every Ginkgo spec in
// suites/ names the rule(s) it checks by ID (see internal/framework), reports
// group results by rule, and the reference server's mutants name the rule
// they break. A rule ID is stable: it never changes meaning once published.
package spec

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Level is the strength of a rule, as the spec words it.
type Level string

const (
	// Must rules are stated by the spec; breaking one fails the run.
	Must Level = "MUST"
	// Should rules follow from the spec's intent (for example "no longer
	// crash") rather than a literal sentence; breaking one also fails the run,
	// the level only tells the reader how directly the spec says it.
	Should Level = "SHOULD"
)

// Area groups rules by endpoint family; each area has one suites/<area> package.
type Area string

// The areas, one Ginkgo package each under suites/.
const (
	AreaProtocol Area = "protocol" // envelope, headers, body encodings: every endpoint
	AreaAuth     Area = "auth"     // tokens, 401/400 early errors, unknown endpoints
	AreaPages    Area = "pages"
	AreaTaxonomy Area = "taxonomy" // tags and categories
	AreaUsers    Area = "users"
	AreaSettings Area = "settings"
	AreaFiles    Area = "files" // file listing and both upload endpoints
)

// Areas lists every area in report order.
func Areas() []Area {
	return []Area{AreaProtocol, AreaAuth, AreaPages, AreaTaxonomy, AreaUsers, AreaSettings, AreaFiles}
}

// Endpoint names one method/path pair of the spec's endpoint table (section 4).
type Endpoint string

// The 16 method/paths of spec section 4.
const (
	ListPages      Endpoint = "GET /api/pages"
	GetPage        Endpoint = "GET /api/pages/{key}"
	CreatePage     Endpoint = "POST /api/pages"
	EditPage       Endpoint = "PUT /api/pages/{key}"
	DeletePage     Endpoint = "DELETE /api/pages/{key}"
	ListTags       Endpoint = "GET /api/tags"
	GetTag         Endpoint = "GET /api/tags/{key}"
	ListCategories Endpoint = "GET /api/categories"
	GetCategory    Endpoint = "GET /api/categories/{key}"
	ListUsers      Endpoint = "GET /api/users"
	GetUser        Endpoint = "GET /api/users/{username}"
	GetSettings    Endpoint = "GET /api/settings"
	EditSettings   Endpoint = "PUT /api/settings"
	UploadImage    Endpoint = "POST /api/images"
	ListFiles      Endpoint = "GET /api/files/{key}"
	UploadFile     Endpoint = "POST /api/files/{key}"
)

// Endpoints lists the 16 endpoints in spec order.
func Endpoints() []Endpoint {
	return []Endpoint{ListPages, GetPage, CreatePage, EditPage, DeletePage,
		ListTags, GetTag, ListCategories, GetCategory, ListUsers, GetUser,
		GetSettings, EditSettings, UploadImage, ListFiles, UploadFile}
}

// Method is the HTTP method of the endpoint.
func (e Endpoint) Method() string { return strings.Fields(string(e))[0] }

// Path is the path template of the endpoint, e.g. "/api/pages/{key}".
func (e Endpoint) Path() string { return strings.Fields(string(e))[1] }

// Writes reports whether the spec counts the endpoint as a write endpoint
// (section 5 rule 2): it needs both tokens and changes the site.
func (e Endpoint) Writes() bool {
	switch e {
	case CreatePage, EditPage, DeletePage, EditSettings, UploadImage, UploadFile:
		return true
	}
	return false
}

// NeedsAuth reports whether the endpoint needs the authentication token:
// every write endpoint and GET /api/settings (section 5 rule 2).
func (e Endpoint) NeedsAuth() bool { return e.Writes() || e == GetSettings }

// labelPath turns a path into a label's characters. Built once: a run
// labels every spec, and building a Replacer costs more than using it. A
// Replacer is safe to use from goroutines side by side.
var labelPath = strings.NewReplacer("/", ".", "{", "", "}", "")

// Label is the Ginkgo label form of the endpoint ("GET:pages.key"), since
// labels may not contain '/'.
func (e Endpoint) Label() string {
	p := labelPath.Replace(strings.TrimPrefix(e.Path(), "/api/"))
	return "endpoint:" + e.Method() + "." + p
}

// Rule is one testable statement of the spec.
type Rule struct {
	ID        string     // stable, e.g. "PAGE-LIST-PAST-END"
	Section   string     // spec section, e.g. "4.1"
	Level     Level      // MUST or SHOULD
	Area      Area       // suites/<area> holds its specs
	Text      string     // one line, our words
	Endpoints []Endpoint // endpoints the rule is about; empty means all
	// Writes is true when checking the rule needs write access to the target.
	Writes bool
	// NotTestable, when set, says why no black-box client can check the rule.
	NotTestable string
	// Reading records how the suite reads an ambiguous sentence, accepting
	// every reading the spec allows (principle 1 of the developers' guide).
	Reading string
	// CrossCutting rules are checked centrally on every recorded exchange
	// rather than by one spec (e.g. headers).
	CrossCutting bool
	// ExploreOnly rules are checked by `conformance explore` on the
	// answers to generated input, not by a spec of the normal run, which
	// reports them not checked, saying so.
	ExploreOnly bool
}

// Label is the Ginkgo label that ties a spec to this rule.
func (r Rule) Label() string { return "rule:" + r.ID }

// Testable reports whether some spec is expected to check the rule.
func (r Rule) Testable() bool { return r.NotTestable == "" }

var idPattern = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$`)

// Catalogue is an immutable, validated set of rules.
type Catalogue struct {
	rules []Rule
	byID  map[string]int
}

// All returns the full catalogue of the spec, in area then declaration order.
func All() *Catalogue {
	c, err := New(allRules())
	if err != nil {
		// The catalogue is static data checked by TestCatalogueIsValid;
		// reaching this is a programming error in this package.
		panic(err)
	}
	return c
}

func allRules() []Rule {
	var rs []Rule
	for _, part := range [][]Rule{protocolRules, authRules, pagesRules, taxonomyRules, usersRules, settingsRules, filesRules} {
		rs = append(rs, part...)
	}
	for i := range rs {
		if everyAnswer[rs[i].ID] {
			rs[i].Reading = strings.TrimSpace(rs[i].Reading + " " + everyAnswerReading)
		}
	}
	return rs
}

// everyAnswer are the rules of a response's shape that are also judged on
// every successful answer of the run to their endpoint, whoever asked for
// it (suites/protocol/shapes.go).
var everyAnswer = map[string]bool{
	"PAGE-LIST-SHAPE": true, "PAGE-OBJECT-SHAPE": true, "PAGE-CREATE-201": true, "PAGE-EDIT-OK": true, "PAGE-DELETE-OK": true,
	"TAG-LIST-SHAPE": true, "TAG-GET-SHAPE": true, "CAT-LIST-SHAPE": true, "CAT-GET-SHAPE": true, "USER-LIST-SHAPE": true,
	"USER-GET-SHAPE": true, "SETTINGS-GET-SHAPE": true, "SETTINGS-EDIT-OK": true, "FILES-LIST-SHAPE": true,
}

// EveryAnswerRules are the rules of everyAnswer, sorted: the rules the
// protocol suite's shape routes must judge, no more and no fewer (a test of
// suites/protocol ties the two).
func EveryAnswerRules() []string { return slices.Sorted(maps.Keys(everyAnswer)) }

// everyAnswerReading is what those rules' Readings add.
const everyAnswerReading = "Besides the answers read for this rule, every successful answer the run receives from its " +
	"endpoint (GET /api/pages/{key} for PAGE-OBJECT-SHAPE), whichever spec asked for it, is held once against the schema " +
	"of that endpoint, in a case of its own: a violation names the spec whose request brought the answer. An answer of " +
	"an endpoint that returns records (all but a delete and a settings update, whose answers carry none) that carries " +
	"no record and conforms is not counted."

// New validates rules and builds a catalogue: IDs well-formed and unique,
// every field a reader needs filled in.
func New(rules []Rule) (*Catalogue, error) {
	c := &Catalogue{byID: map[string]int{}}
	var problems []string
	known := map[Area]bool{}
	for _, a := range Areas() {
		known[a] = true
	}
	for i, r := range rules {
		switch {
		case !idPattern.MatchString(r.ID):
			problems = append(problems, fmt.Sprintf("rule %q: ID must look like AREA-NAME in capitals", r.ID))
		case c.has(r.ID):
			problems = append(problems, fmt.Sprintf("rule %q: duplicate ID", r.ID))
		}
		if r.Section == "" || r.Text == "" || (r.Level != Must && r.Level != Should) || !known[r.Area] {
			problems = append(problems, fmt.Sprintf("rule %q: section, text, level and a known area are required", r.ID))
		}
		c.byID[r.ID] = i
		c.rules = append(c.rules, r)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("invalid catalogue:\n  %s", strings.Join(problems, "\n  "))
	}
	return c, nil
}

func (c *Catalogue) has(id string) bool { _, ok := c.byID[id]; return ok }

// Rules returns the rules in catalogue order (a copy).
func (c *Catalogue) Rules() []Rule { return append([]Rule(nil), c.rules...) }

// Lookup finds a rule by ID.
func (c *Catalogue) Lookup(id string) (Rule, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Rule{}, false
	}
	return c.rules[i], true
}

// IDs returns every rule ID, sorted.
func (c *Catalogue) IDs() []string {
	ids := make([]string, 0, len(c.rules))
	for _, r := range c.rules {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	return ids
}

// InArea returns the rules of one area in catalogue order.
func (c *Catalogue) InArea(a Area) []Rule {
	var out []Rule
	for _, r := range c.rules {
		if r.Area == a {
			out = append(out, r)
		}
	}
	return out
}
