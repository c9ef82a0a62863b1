package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
)

// writeShard writes the summary of the given sites as shard index of
// total into dir/fleet.json.
func writeShard(t *testing.T, dir string, index, total int, digest string, sites []Site, order []int) string {
	t.Helper()
	head := Fleet{SuiteVersion: "v9", Targets: Targets{File: "sites.yaml", Digest: digest, Sites: 5}}
	if total > 0 {
		head.Shards = &Shards{Total: total, Present: []int{index}}
	}
	s := collect(t, head, sites, order)
	if _, err := s.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, JSONFile)
}

// comparable is a summary without what differs between one run and its
// shards merged: times, the shards, the report paths.
func comparable(t *testing.T, s *Summary) (Fleet, []Site) {
	t.Helper()
	head := s.Fleet
	head.Shards, head.Started, head.Duration = nil, time.Time{}, 0
	var sites []Site
	_ = s.Each(func(site Site) error {
		site.Reports = Reports{}
		sites = append(sites, site)
		return nil
	})
	for i := range head.Rules {
		head.Rules[i].failedAt = nil
	}
	return head, sites
}

func TestMergeMakesTheSummaryOfOneRun(t *testing.T) {
	all := fiveSites()
	root := t.TempDir()
	// Shard 0 holds alpha, down and echo; shard 1 bravo and delta.
	a := writeShard(t, filepath.Join(root, "shard-0"), 0, 2, "sha256:x", all, []int{4, 0, 2})
	b := writeShard(t, filepath.Join(root, "shard-1"), 1, 2, "sha256:x", all, []int{3, 1})
	out := filepath.Join(root, "merged")
	merged, err := Merge([]string{b, a}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	whole := collect(t, Fleet{SuiteVersion: "v9", Targets: Targets{File: "sites.yaml", Digest: "sha256:x", Sites: 5}}, all, []int{0, 1, 2, 3, 4})
	mh, ms := comparable(t, merged)
	wh, ws := comparable(t, whole)
	if !reflect.DeepEqual(mh, wh) {
		t.Errorf("merged head:\n%+v\none run's:\n%+v", mh, wh)
	}
	if !reflect.DeepEqual(ms, ws) {
		t.Errorf("merged sites:\n%+v\none run's:\n%+v", ms, ws)
	}
	if merged.Shards == nil || merged.Shards.Total != 2 || len(merged.Shards.Missing()) != 0 {
		t.Errorf("merged shards %+v", merged.Shards)
	}
	var links []string
	_ = merged.Each(func(s Site) error { links = append(links, s.Reports.HTML); return nil })
	if links[0] != "../shard-0/sites/alpha/report.html" || links[1] != "../shard-1/sites/bravo/report.html" {
		t.Errorf("the merged summary links to %v", links)
	}
	if _, err := merged.WriteFiles(out); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(out, HTMLFile))
	if !bytes.Contains(page, []byte(`href="../shard-1/sites/bravo/report.html"`)) {
		t.Error("the merged page does not link to bravo's report in its shard's folder")
	}
}

func TestMergeRefusesOtherFleets(t *testing.T) {
	all := fiveSites()
	root := t.TempDir()
	a := writeShard(t, filepath.Join(root, "a"), 0, 2, "sha256:x", all, []int{0})
	otherFile := writeShard(t, filepath.Join(root, "b"), 1, 2, "sha256:y", all, []int{1})
	again := writeShard(t, filepath.Join(root, "c"), 0, 2, "sha256:x", all, []int{2})
	ofThree := writeShard(t, filepath.Join(root, "d"), 1, 3, "sha256:x", all, []int{3})
	whole := writeShard(t, filepath.Join(root, "e"), 0, 0, "sha256:x", all, []int{4})
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{a, otherFile}, "another targets file"},
		{[]string{a, again}, "both hold shard 0/2"},
		{[]string{a, ofThree}, "one of 3 shards, not 2"},
		{[]string{a, whole}, "cannot be merged with shards"},
		{[]string{filepath.Join(root, "nope.json")}, "no such file"},
	} {
		if _, err := Merge(c.paths, root, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Merge(%v): %v, want an error saying %q", c.paths, err, c.want)
		}
	}
}

// TestMergeOfMissingShardFails: a shard not given leaves sites unchecked:
// the verdict says which shard, and the exit code is not a pass.
func TestMergeOfMissingShardFails(t *testing.T) {
	all := fiveSites()
	all[2] = site(2, "down", Passed, report.Passed)
	all[4] = site(4, "echo", Passed, report.Passed)
	root := t.TempDir()
	a := writeShard(t, filepath.Join(root, "a"), 0, 2, "sha256:x", all, []int{0, 2, 3})
	merged, err := Merge([]string{a}, root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	if merged.Exit != 1 || !strings.Contains(merged.Verdict, "2 sites of the targets not checked: the summaries of shard(s) 1 of 2 were not given") {
		t.Errorf("exit %d, verdict %q", merged.Exit, merged.Verdict)
	}
	var b bytes.Buffer
	_ = merged.WriteJSON(&b)
	var doc struct{ Shards Shards }
	_ = json.Unmarshal(b.Bytes(), &doc)
	if doc.Shards.Total != 2 || len(doc.Shards.Present) != 1 {
		t.Errorf("shards in the JSON: %+v", doc.Shards)
	}
}
