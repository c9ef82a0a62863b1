package reads_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/suites/pages/reads"
)

// shuffledChildEnv, when set, makes TestReads the run of
// TestShuffledListOrder instead of the ordinary one; sparseChildEnv that of
// TestSparseSite.
const (
	shuffledChildEnv = "CONFORMANCE_READS_SHUFFLED_CHILD"
	sparseChildEnv   = "CONFORMANCE_READS_SPARSE_CHILD"
)

// TestReads runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the pages the
// reads create where the target lacks data are all gone again.
func TestReads(t *testing.T) {
	if os.Getenv(shuffledChildEnv) != "" {
		shuffledRun(t)
		return
	}
	if os.Getenv(sparseChildEnv) != "" {
		sparseRun(t)
		return
	}
	frameworktest.RunSuiteLeavingNoTrace(t, "pages reads", reads.Register)
}

// TestShuffledListOrder runs the read specs, in a child process, against a
// reference server whose page list answers come in a new order on every
// request (the pages of each answer shuffled) and whose page objects carry
// a field that changes on every read: the spec states no order for the
// list and allows extra fields, so every spec must pass.
func TestShuffledListOrder(t *testing.T) {
	frameworktest.RunChild(t, "TestReads", shuffledChildEnv, "the run against a server shuffling its page lists")
}

// shuffledRun is the child of TestShuffledListOrder.
func shuffledRun(t *testing.T) {
	cfg := frameworktest.Reference(t, reference.BenignVolatilePageField)
	upstream, err := url.Parse(cfg.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	var reordered atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	proxy.ModifyResponse = func(res *http.Response) error {
		if res.Request.Method != http.MethodGet || res.Request.URL.Path != pagelist.PagesPath {
			return nil
		}
		body, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		if shuffled, changed := shuffleData(body); changed {
			reordered.Add(1)
			body = shuffled
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		res.ContentLength = int64(len(body))
		res.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{})
	RegisterFailHandler(Fail)
	framework.Install(target)
	reads.Register(target)
	RunSpecs(t, "pages reads, page lists shuffled")
	if reordered.Load() == 0 {
		t.Error("no page list answer was reordered: the run proves nothing about the order")
	}
}

// TestSparseSite runs the read specs, in a child process, against a
// reference server left with two published pages: the setup of the
// container needing pages of some kind creates what its rules need (a page
// of each other type, a child page, tagged and untagged pages, enough
// pages for several list pages), so that none of its specs is left not
// checked but the default page size without parameters (the setup creates
// drafts, and two published pages do not fill a page), and the run removes
// it all again.
func TestSparseSite(t *testing.T) {
	frameworktest.RunChild(t, "TestReads", sparseChildEnv, "the run against a sparse site")
}

// sparseRun is the child of TestSparseSite.
func sparseRun(t *testing.T) {
	cfg := frameworktest.Reference(t)
	keepOnly(t, cfg, "alpha-post", "delta-post")
	readOnly := cfg
	readOnly.AuthToken, readOnly.ReadOnly = "", true
	snap, err := client.New(readOnly)
	if err != nil {
		t.Fatal(err)
	}
	before, err := frameworktest.TakeSnapshot(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReadCache, cfg.MaxInFlight = true, client.DefaultConcurrency
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{Concurrency: client.DefaultConcurrency})
	var skipped []string
	ReportAfterEach(func(r SpecReport) {
		text := r.FullText()
		if r.State == types.SpecStateSkipped && strings.HasPrefix(text, "Page reads needing pages of some kind") &&
			!(strings.Contains(text, "[PAGE-LIST-DEFAULT-SIZE]") && strings.HasSuffix(text, "(no parameters)")) {
			skipped = append(skipped, text+": "+r.Failure.Message)
		}
	})
	RegisterFailHandler(Fail)
	framework.Install(target)
	reads.Register(target)
	RunSpecs(t, "pages reads, a sparse site")
	if len(skipped) > 0 {
		t.Errorf("specs not checked although the run may create what they need:\n  %s", strings.Join(skipped, "\n  "))
	}
	after, err := frameworktest.TakeSnapshot(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	if diff := before.Diff(after); len(diff) > 0 {
		t.Errorf("leave no trace: the run changed the sparse site:\n  %s", strings.Join(diff, "\n  "))
	}
}

// keepOnly deletes every page of the reference server cfg names but those
// given (child pages first), through a client of its own.
func keepOnly(t *testing.T, cfg client.Config, keep ...string) {
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	admin := framework.New(c, framework.Options{})
	all := admin.Pages.ListAll(t.Context(), pagelist.EveryTypeQuery())
	if all.Problem != "" {
		t.Fatal(all.Problem)
	}
	keys := all.Pages.Keys()
	slices.SortFunc(keys, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, key := range keys {
		if slices.Contains(keep, key) {
			continue
		}
		if ex := admin.Write(t.Context(), http.MethodDelete, pagelist.PagePath(key), nil); ex.Status != http.StatusOK {
			t.Fatalf("deleting %s: %s", key, match.Outcome(ex))
		}
	}
}

// shuffleData shuffles the data array of a JSON answer, and reports
// whether the order changed.
func shuffleData(body []byte) ([]byte, bool) {
	var doc map[string]json.RawMessage
	var data []json.RawMessage
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc["data"], &data) != nil || len(data) < 2 {
		return body, false
	}
	before := slices.Clone(data)
	rand.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	if slices.EqualFunc(before, data, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
		return body, false
	}
	doc["data"], _ = json.Marshal(data)
	out, err := json.Marshal(doc)
	if err != nil {
		return body, false
	}
	return out, true
}
