package explore

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// explore runs an exploration of srv with writes and settings writes.
func exploreRef(t *testing.T, srv testkit.Server, cfg Config) (Result, string) {
	t.Helper()
	cfg.Client = client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken, ReadOnly: cfg.Client.ReadOnly}
	if !cfg.Client.ReadOnly {
		cfg.SettingsWrites = true
	}
	var out bytes.Buffer
	res := Run(t.Context(), cfg, &out)
	return res, out.String()
}

// exploreLeavingNoTrace is exploreRef, failing t when the exploration
// leaves the server's storage (what the API hides included) changed.
func exploreLeavingNoTrace(t *testing.T, srv testkit.Server, cfg Config) (Result, string) {
	t.Helper()
	before := srv.Storage()
	res, out := exploreRef(t, srv, cfg)
	if d := before.Diff(srv.Storage()); len(d) > 0 {
		t.Errorf("the exploration left the storage changed:\n%s\n%s", strings.Join(d, "\n"), out)
	}
	return res, out
}

// smallest bounds each explore-only mutant's shrunk case: body fields or
// query parameters, and characters of their values (run-marked names
// count as their placeholders).
var smallest = map[reference.Mutant][2]int{
	reference.ExploreTagAmpersandCrash: {5, 20}, // slug, title, content, type, tags "a&b"
	// the same with four tags and a category, or the many class's fifty
	// names t1 to t50 (when the search met the bug there first)
	reference.ExploreCategoryDroppedTags:    {6, 210},
	reference.ExploreEditTypeAndDate500:     {2, 30},  // type and date
	reference.ExploreUntaggedSizeOne500:     {2, 5},   // untagged=true&numberOfItems=1
	reference.ExploreBigPageSize400:         {2, 6},   // numberOfItems=101, and a pageNumber of its own rule
	reference.ExploreDescriptionCut:         {5, 100}, // a description of 81 characters
	reference.ExploreFormQuoteTwice:         {4, 16},  // title `"`
	reference.ExploreRefusedEditAppliesTags: {1, 12},  // tags
	reference.ExploreMissingTagEchoesToken:  {0, 12},  // one short key
	reference.ExploreFilesEncodedDots:       {0, 8},   // %2e%2eb
	reference.ExploreTextPlainCrash:         {0, 40},  // a body with Content-Type text/plain
	// One per boundary class (issue 32): a create's slug, title, content
	// and type, and the value at the class's edge (an edit: that alone).
	reference.ExploreLongContentCut:       {4, 10_020}, // content of 10,001 characters
	reference.ExploreControlCharCut:       {5, 20},     // description "a\x01"
	reference.ExploreBlankTagSegment:      {5, 20},     // tags ",a"
	reference.ExploreNegativePosition500:  {5, 20},     // position -1
	reference.ExploreBadDateCreatedAnyway: {5, 30},     // date "yesterday"
}

// edges are the values the class mutants' findings shrink to: each
// class's edge.
var edges = map[reference.Mutant]struct {
	field string
	value any
}{
	reference.ExploreLongContentCut:       {"content", strings.Repeat("a", 10_001)},
	reference.ExploreControlCharCut:       {"description", "a\x01"},
	reference.ExploreBlankTagSegment:      {"tags", ",a"},
	reference.ExploreNegativePosition500:  {"position", "-1"},
	reference.ExploreBadDateCreatedAnyway: {"date", "yesterday"},
}

// atEdge reports whether a shrunk case sends field at the class's edge.
func atEdge(c gen.Case, field string, value any) bool {
	f, ok := c.Field(field)
	return ok && fmt.Sprint(f.Value) == fmt.Sprint(value)
}

// TestExploreFindsEachMutantOnlyGeneratedInputReveals: with the default
// budget, an exploration of the reference server with each explore-only
// mutant finds it, by a rule the mutant breaks, shrunk to a small case;
// --replay of the saved file finds it again, and passes on the reference.
// The mutants are explored side by side (see rapidMu). Under the race
// detector only two are (a read's and a write's): that run looks for
// races, and the plain run proves each mutant found.
func TestExploreFindsEachMutantOnlyGeneratedInputReveals(t *testing.T) {
	n := 0
	for _, m := range reference.Mutants() {
		if !m.ExploreOnly {
			continue
		}
		n++
		if testkit.RaceEnabled && m.Name != reference.ExploreTagAmpersandCrash && m.Name != reference.ExploreUntaggedSizeOne500 {
			continue
		}
		t.Run(string(m.Name), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{m.Name}}, nil)
			res, out := exploreRef(t, srv, Config{Seed: 1, ReplayDir: dir})
			var hit *Record
			for i, r := range res.Records {
				if slices.Contains(m.Rules, r.Finding.Rule) && hit == nil {
					hit = &res.Records[i]
				}
			}
			if res.Exit != ExitFindings || hit == nil {
				t.Fatalf("not found within the default budget (exit %d; rules %v):\n%s", res.Exit, m.Rules, out)
			}
			fields, chars := hit.Case.Size()
			bound, ok := smallest[m.Name]
			if !ok || fields > bound[0] || chars > bound[1] {
				t.Errorf("shrunk to %d fields and %d characters, want at most %v: %s", fields, chars, bound, abbreviated(hit.Case))
			}
			if e, ok := edges[m.Name]; ok && !atEdge(hit.Case, e.field, e.value) {
				t.Errorf("not shrunk to the class's edge (%s %q): %s", e.field, abbreviated(e.value), abbreviated(hit.Case))
			}
			t.Logf("%s: %s in %d requests, shrunk from %d field(s), %d character(s) to %d, %d: %s", m.Name, hit.Finding.Signature(), res.Requests,
				hit.FirstSize[0], hit.FirstSize[1], fields, chars, hit.judged().RequestLine())
			b, err := os.ReadFile(hit.File)
			if err != nil {
				t.Fatal(err)
			}
			for _, tok := range []string{srv.Token, srv.AuthToken} {
				if strings.Contains(string(b), tok) {
					t.Errorf("the replay file %s holds a token", hit.File)
				}
			}
			again := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{m.Name}}, nil)
			rres, rout := exploreRef(t, again, Config{Replay: []string{hit.File}})
			found := slices.ContainsFunc(rres.Records, func(r Record) bool { return r.Finding.Signature() == hit.Finding.Signature() })
			if rres.Exit != ExitFindings || !found {
				t.Errorf("--replay did not catch it again (exit %d):\n%s", rres.Exit, rout)
			}
			fixed := testkit.ReferenceWith(t, reference.Options{}, nil)
			if fres, fout := exploreRef(t, fixed, Config{Replay: []string{hit.File}}); fres.Exit != ExitPass {
				t.Errorf("--replay on the reference server (the mutant fixed) exits %d, want 0:\n%s", fres.Exit, fout)
			}
		})
	}
	if n < 16 {
		t.Errorf("%d explore-only mutants, want at least 16", n)
	}
}

// abbreviated renders v (a case, a value) with long runs cut.
func abbreviated(v any) string {
	s := fmt.Sprintf("%+v", v)
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return s
}

// zeroFindingBudget is the budget of each exploration of
// TestNoFindingOnConformingServers: a fifth of the default, so that many
// seeds fit.
const zeroFindingBudget = 400

// seedsPerTarget is how many explorations TestNoFindingOnConformingServers
// makes of each target, each with a seed of its own. One under -short,
// and under the race detector: that run looks for races, and the plain
// run of the same test covers the seeds.
func seedsPerTarget() int {
	if testing.Short() || testkit.RaceEnabled {
		return 1
	}
	return 3
}

// TestNoFindingOnConformingServers explores the reference server, every
// benign variant and every profile (divergent), each over several seeds,
// side by side: a server the spec allows gets no finding.
func TestNoFindingOnConformingServers(t *testing.T) {
	type target struct {
		name string
		opts reference.Options
	}
	targets := []target{{"reference", reference.Options{}}}
	for _, m := range reference.Mutants() {
		if m.Benign && !m.Hazard {
			targets = append(targets, target{string(m.Name), reference.Options{Mutants: []reference.Mutant{m.Name}}})
		}
	}
	for _, p := range reference.Profiles() {
		targets = append(targets, target{"profile-" + string(p.Name), reference.Options{Profile: p.Name}})
	}
	perTarget := seedsPerTarget()
	var runs, cases atomic.Int64
	t.Run("targets", func(t *testing.T) {
		for i, tg := range targets {
			t.Run(tg.name, func(t *testing.T) {
				t.Parallel()
				for j := range perTarget {
					seed := uint64(1 + i*perTarget + j) // every exploration its own seed
					srv := testkit.ReferenceWith(t, tg.opts, nil)
					res, _ := exploreRef(t, srv, Config{Seed: seed, Requests: zeroFindingBudget})
					runs.Add(1)
					for _, n := range res.Cases {
						cases.Add(int64(n))
					}
					for _, r := range res.Records {
						t.Errorf("seed %d: %s: expected %s, got %s\n%s", seed, r.Finding.Signature(), r.Finding.Expected, r.Finding.Got, r.judged())
					}
				}
			})
		}
	})
	t.Logf("zero findings: %d targets x %d seeds = %d explorations (seeds 1 to %d), %d generated cases",
		len(targets), perTarget, runs.Load(), len(targets)*perTarget, cases.Load())
}

// TestExploreLeavesNoTrace: a whole exploration (writes and settings)
// leaves the reference storage identical, and no report, HAR log or
// console line holds a token, even against a server that echoes the token
// in its answers. (That a read-only one sends no write carrying the
// authentication token is watched at the server by the CLI's
// TestExploreReadOnlySendsNoAuthenticatedWrite.)
func TestExploreLeavesNoTrace(t *testing.T) {
	for _, ro := range []bool{false, true} {
		t.Run(fmt.Sprintf("read-only=%t", ro), func(t *testing.T) {
			dir := t.TempDir()
			srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{reference.ExploreMissingTagEchoesToken}}, nil)
			cfg := Config{Seed: 5, ReplayDir: dir, Requests: 800, Reports: Reports{JSON: filepath.Join(dir, "r.json"), HAR: filepath.Join(dir, "r.har"),
				HTML: filepath.Join(dir, "r.html"), JUnit: filepath.Join(dir, "r.xml"), Markdown: filepath.Join(dir, "r.md")}}
			cfg.Client.ReadOnly = ro
			res, out := exploreLeavingNoTrace(t, srv, cfg)
			if res.Exit != ExitFindings || len(res.Records) == 0 {
				t.Errorf("the token echo was not found (exit %d)", res.Exit)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			texts := map[string]string{"console": out}
			for _, f := range files {
				b, _ := os.ReadFile(f)
				texts[f] = string(b)
			}
			if !strings.Contains(texts[cfg.HAR], `"entries"`) {
				t.Errorf("no HAR log written")
			}
			for name, text := range texts {
				for _, tok := range []string{srv.Token, srv.AuthToken} {
					if strings.Contains(text, tok) {
						t.Errorf("%s holds a token", name)
					}
				}
			}
		})
	}
}

// TestSeedReproducesTheExploration: the same seed sends the same requests.
func TestSeedReproducesTheExploration(t *testing.T) {
	lines := func() []string {
		srv := testkit.ReferenceWith(t, reference.Options{}, nil)
		var got []string
		cfg := Config{Seed: 9, Requests: 300, Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken}, SettingsWrites: true}
		var out bytes.Buffer
		res := Run(t.Context(), cfg, &out)
		for _, r := range res.Report.Specs {
			got = append(got, r.Name)
		}
		return append(got, fmt.Sprint(res.Cases))
	}
	if a, b := lines(), lines(); !slices.Equal(a, b) {
		t.Errorf("two explorations with seed 9 differ:\n%v\n%v", a, b)
	}
}

// distant delays every answer by d, like a site d away.
func distant(d time.Duration) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(d)
			h.ServeHTTP(w, r)
		})
	}
}

// BenchmarkDistantExplore measures an exploration with the default budget
// of a site 50 ms away (writes and settings), seed 1: of the reference
// server (nothing to find: the whole search, about 54 s of the 60 s
// budget, then the cleanup), and of the reference with each mutant of a
// boundary class (issue 32): when the search found it (seconds,
// requests), and the shrunk case's size. docs/explore.md gives the
// figures.
func BenchmarkDistantExplore(b *testing.B) {
	targets := []reference.Mutant{""}
	for m := range edges {
		targets = append(targets, m)
	}
	slices.Sort(targets)
	for _, m := range targets {
		name := string(m)
		if m == "" {
			name = "reference"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				opts := reference.Options{}
				if m != "" {
					opts.Mutants = []reference.Mutant{m}
				}
				srv := testkit.ReferenceWith(b, opts, distant(50*time.Millisecond))
				var out bytes.Buffer
				start := time.Now()
				res := Run(b.Context(), Config{Seed: 1, Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken}, SettingsWrites: true}, &out)
				b.ReportMetric(time.Since(start).Seconds(), "s/exploration")
				b.ReportMetric(float64(res.Requests), "requests")
				cases := 0
				for _, n := range res.Cases {
					cases += n
				}
				b.ReportMetric(float64(cases), "cases")
				if m == "" {
					continue
				}
				i := slices.IndexFunc(res.Records, func(r Record) bool { return atEdge(r.Case, edges[m].field, edges[m].value) })
				if i < 0 {
					b.Logf("%s: not found at its class's edge within the budget:\n%s", m, out.String())
					continue
				}
				r := res.Records[i]
				_, chars := r.Case.Size()
				b.ReportMetric(r.Found.After.Seconds(), "s-to-find")
				b.ReportMetric(float64(r.Found.Requests), "requests-to-find")
				b.ReportMetric(float64(r.Shrink), "shrink-requests")
				b.ReportMetric(float64(chars), "shrunk-chars")
			}
		})
	}
}
