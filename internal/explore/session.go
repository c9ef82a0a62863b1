package explore

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/conformance-suite/conformance/internal/rules/sitemodel"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/marker"
)

// session is one exploration (or replay) of one target: the client, what
// the run created (the framework's ledger), what was read of the site
// before exploring, and the settings as they were.
type session struct {
	cfg   Config
	c     *client.Client
	fx    *framework.Fixture
	site  gen.Site
	model oracle.ListModel
	tally oracle.Tally
	// settings is the whole settings map before any change, and the
	// fields that change by themselves (neither restored nor compared).
	settings map[string]any
	volatile []string
	// sent numbers the slugs of the run's pages.
	sent atomic.Int64
	// notes are what the run could not undo, for the report.
	notes []string
	// skipped counts the cases not sent because this target could not
	// undo them, by reason (undo.go); childLeft, when set, is why no
	// more child pages are made.
	skipped      map[string]int
	skippedCells map[gen.Cell]bool
	childLeft    string
	// behaviour is what the exploration has seen (new behaviour guides
	// and ends the search); stop says why the search ended.
	behaviour *behaviour
	// modelled keeps every answer for the site model (sitemodel.go).
	modelled *sitemodel.Recorder
	stop     string
	// shrinking is the signature of the finding being shrunk ("" while
	// searching).
	shrinking string

	budget  budget
	cases   map[gen.Kind]int // cases sent while searching, by kind
	records []Record         // findings, each with its shrunk case
	flaky   []Record         // findings that did not show again
	out     io.Writer        // the console, through the redactor
	mode    string           // read-only, writes or writes+settings
	settled bool             // changedSettings has read the settings twice
}

// marker is the run marker every page of the run starts with.
func (s *session) marker() string { return marker.Of(s.fx.RunID, "") }

// newSlug is a fresh run-marked slug.
func (s *session) newSlug() string {
	return marker.Of(s.fx.RunID, "x"+strconv.FormatInt(s.sent.Add(1), 10))
}

// fill replaces the placeholders of the case's strings for one sending.
func (s *session) fill(v any, slug string) any {
	if str, ok := v.(string); ok {
		return gen.Fill(str, slug, s.marker())
	}
	return v
}

// fields fills in the fields of a case for one sending.
func (s *session) fields(fs []gen.Field, slug string) []gen.Field {
	out := make([]gen.Field, len(fs))
	for i, f := range fs {
		f.Value = s.fill(f.Value, slug)
		out[i] = f
	}
	return out
}

// body puts fields into a request as JSON or form values.
func body(r *client.Request, fs []gen.Field, form bool) {
	if form {
		r.Form = url.Values{}
		for _, f := range fs {
			r.Form.Set(f.Name, fmt.Sprint(f.Value))
		}
		return
	}
	r.JSON = map[string]any{}
	for _, f := range fs {
		r.JSON[f.Name] = f.Value
	}
}

// keyPath is the path of a case's key under its endpoint.
func (s *session) keyPath(endpoint, key, class string) string {
	key = gen.Fill(key, s.newSlug(), s.marker())
	if gen.Escaped(class) {
		return "/api/" + endpoint + "/" + key
	}
	return client.KeyPath(endpoint, key)
}

// tokens are the run's tokens, which no answer may carry.
func (s *session) tokens() []string { return []string{s.c.Token(), s.c.AuthToken()} }

// load reads what the generators and the oracles need of the site: its
// pages, tags, categories and users, how many pages of each type it
// holds (every page listed, checked against meta.total), the default page
// size, and (with settings writes) the settings.
func (s *session) load(ctx context.Context) error {
	// The listing the list cases are judged against is not taken on the
	// word of numberOfItems=-1, the feature under test: Pages.ListAll
	// checks it against meta.total (and walks a site too big for it).
	all := s.fx.Pages.ListAll(ctx, pagelist.EveryTypeQuery())
	if all.Problem != "" {
		return fmt.Errorf("the pages of every type could not be listed: %s", all.Problem)
	}
	s.model.Counts = map[string]int{}
	for _, p := range all.Pages.Scan {
		s.site.Pages = append(s.site.Pages, strings.Clone(p.Get("key").String())) // not a part of the page's text
		// A key of its own: the page is borrowed (Scan), and assigning to a
		// map stores the key given, even over an equal one.
		s.model.Counts[strings.Clone(p.Get("type").String())]++
	}
	def := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages"})
	s.model.DefaultSize = int(def.Get("meta.pageSize").Int())
	if s.model.DefaultSize <= 0 {
		s.model.DefaultSize = 15
	}
	for _, ep := range []string{"tags", "categories"} {
		ex := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/" + ep})
		for _, t := range ex.Get("data").Array() {
			if k := t.Get("key").String(); k != "" {
				if ep == "tags" {
					s.site.Tags = append(s.site.Tags, k)
				} else {
					s.site.Categories = append(s.site.Categories, k)
				}
			}
		}
	}
	users := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/users"})
	for k := range users.Get("data").Map() {
		s.site.Users = append(s.site.Users, k)
	}
	slices.Sort(s.site.Users)
	s.site.DotSegments = s.dotSegmentsPass(ctx)
	s.site.Writes = s.fx.CanWrite()
	if s.site.Writes && s.cfg.SettingsWrites {
		return s.loadSettings(ctx)
	}
	return nil
}

// dotSegmentsPass reports whether a path with ".." as a whole segment
// reaches the API as sent (gen.ClassDotSegment): GET /api/<x>/../pages
// names an endpoint that does not exist, unless something on the way (a
// front, the server's own router, a redirect) resolves the dot segment,
// and then it answers the page list.
func (s *session) dotSegmentsPass(ctx context.Context) bool {
	ex := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/" + s.marker() + "x/../pages", Fresh: true})
	resolved := ex.Status == http.StatusOK && ex.Get("data").IsArray()
	return oracle.Judgeable(ex) && !resolved
}

// loadSettings reads the settings twice side by side: fields that differ
// are volatile (more are found, if need be, by changedSettings). Only text
// settings 2.6 names are changed.
func (s *session) loadSettings(ctx context.Context) error {
	_, first, problem := settingsguard.Read(ctx, s.fx)
	if problem != "" {
		return fmt.Errorf("the settings cannot be read, so they could not be restored: %s", problem)
	}
	_, second, problem := settingsguard.Read(ctx, s.fx, framework.Fresh())
	if problem != "" {
		return fmt.Errorf("the settings cannot be read, so they could not be restored: %s", problem)
	}
	s.settings = first
	s.volatile = settingsguard.ChangedFields(first, second)
	for _, name := range []string{"title", "slogan", "description"} {
		if _, ok := first[name].(string); ok && !slices.Contains(s.volatile, name) {
			s.site.Settings = append(s.site.Settings, name)
		}
	}
	cf, ok := first["customFields"].(string)
	s.site.CustomFields = ok && !slices.Contains(s.volatile, "customFields") && strings.TrimSpace(cf) != ""
	s.site.SettingsWrites = len(s.site.Settings) > 0
	return nil
}

// changedSettings lists the fields of now (the settings read after a
// case) that differ from before, except the named ones and the volatile
// ones, as settingsguard.Guard.Changed judges them: the first time
// fields differ (once a run: an exploration sends hundreds of cases) they
// are read twice more, apart, and those that change by themselves are
// volatile from then on.
func (s *session) changedSettings(ctx context.Context, before, now map[string]any, except ...string) []string {
	if s.settled {
		return settingsguard.ChangedFields(before, now, slices.Concat(except, s.volatile)...)
	}
	changed, late := settingsguard.SettledChanges(ctx, s.fx, before, now, s.volatile, except...)
	s.settled = len(changed)+len(late) > 0
	s.volatile = append(s.volatile, late...)
	return changed
}

// adopt records a page the run made, under the key an answer gave.
func (s *session) adopt(key string) {
	if key != "" {
		s.fx.Ledger.AddPage(key)
	}
}

// remove deletes a page of the run, whatever happened to the case.
func (s *session) remove(ctx context.Context, key string) {
	cctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	if err := s.fx.DeletePage(cctx, key); err != nil {
		s.notes = append(s.notes, err.Error())
	}
}

// sweep deletes every page of the run still on the site: what the ledger
// holds, and any run-marked page it never heard of (a write whose answer
// was lost, a key the server derived from a marked title).
func (s *session) sweep(ctx context.Context) {
	if !s.fx.CanWrite() {
		return
	}
	cctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	ex := s.c.Do(cctx, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: marker.AllPagesQuery(), Fresh: true})
	for _, p := range ex.Get("data").Array() {
		if k := p.Get("key").String(); marker.HasRunMarker(k, s.fx.RunID) {
			s.adopt(k)
		}
	}
	pages := s.fx.Ledger.Pages()
	for i := len(pages) - 1; i >= 0; i-- { // children first
		s.remove(cctx, pages[i])
	}
}
