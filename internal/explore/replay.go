package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/har"
)

// A replay file keeps one finding's shrunk case, as data: what
// `conformance explore --replay FILE` sends again, against the same
// target or another one (a server author's regression test). It holds no
// token: the case names none (the run's tokens are filled in when it is
// sent), and the curl line shows them as ${CONFORMANCE_TOKEN} and
// ${CONFORMANCE_AUTH_TOKEN}.

// ReplayFormat is the version of the replay file's format.
const ReplayFormat = 1

// ReplayFile is the content of a replay file.
type ReplayFile struct {
	Format int    `json:"format"`
	Tool   string `json:"tool"`
	// Found says where and when: the target (password masked), the seed
	// of the exploration, the date.
	Found   string         `json:"found"`
	Finding oracle.Finding `json:"finding"`
	Case    gen.Case       `json:"case"`
	// Curl reproduces the request judged, as it was sent (for people:
	// --replay sends the case again with fresh run-marked names).
	Curl string `json:"curl,omitempty"`
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// saveReplay writes the replay file of a record into the replay
// directory and returns its path ("" when no directory is set).
func (s *session) saveReplay(r *Record, n int) (string, error) {
	if s.cfg.ReplayDir == "" {
		return "", nil
	}
	f := ReplayFile{Format: ReplayFormat, Tool: "conformance explore", Case: r.Case, Finding: r.Finding,
		Found: fmt.Sprintf("%s, seed %d, %s", s.c.BaseURL(), s.cfg.Seed, time.Now().UTC().Format(time.RFC3339))}
	f.Finding.Seq = 0
	if ex := r.judged(); ex != nil {
		f.Curl = ex.Curl()
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return "", err
	}
	b = s.c.Redactor().Bytes(b) // the case holds no token; the curl line is redacted already
	name := fmt.Sprintf("%s-%d-%s.json", strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(r.Finding.Rule), "-"), "-"), n, s.fx.RunID)
	path := filepath.Join(s.cfg.ReplayDir, name)
	if err := os.MkdirAll(s.cfg.ReplayDir, 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, append(b, '\n'), 0o644)
}

// LoadReplay reads a replay file.
func LoadReplay(path string) (ReplayFile, error) {
	var f ReplayFile
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s is not a replay file: %v", path, err)
	}
	if f.Format != ReplayFormat || f.Case.Kind == "" {
		return f, fmt.Errorf("%s is not a replay file of format %d", path, ReplayFormat)
	}
	return f, nil
}

// replayAll sends the case of each replay file once and judges it: each
// finding it shows is a record, the recorded one or another.
func (s *session) replayAll(ctx context.Context, rec *har.Recorder, started time.Time) Result {
	for _, path := range s.cfg.Replay {
		f, err := LoadReplay(path)
		if err != nil {
			fmt.Fprintf(s.out, "conformance: --replay: %v\n", err)
			// ExitUsage, unless the site lost data (finish: ExitUnusable).
			return s.finish(ctx, rec, started, ExitUsage, "The replay file cannot be read: "+err.Error())
		}
		if why := s.cannotReplay(f.Case); why != "" {
			s.notes = append(s.notes, fmt.Sprintf("%s not replayed: %s", path, why))
			fmt.Fprintf(s.out, "%s: not replayed: %s\n", path, why)
			continue
		}
		out := s.run(ctx, f.Case)
		s.cases[f.Case.Kind]++
		found := false
		for _, finding := range out.judge.Findings {
			if finding.Signature() == f.Finding.Signature() {
				found = true
			}
		}
		switch {
		case found:
			fmt.Fprintf(s.out, "%s: still fails: %s\n", path, f.Finding.Signature())
		case len(out.judge.Findings) > 0:
			fmt.Fprintf(s.out, "%s: %s no longer shows, but the case fails otherwise\n", path, f.Finding.Signature())
		default:
			fmt.Fprintf(s.out, "%s: passes (%s fixed)\n", path, f.Finding.Signature())
		}
		seen := map[string]bool{}
		for _, finding := range out.judge.Findings {
			if !seen[finding.Signature()] {
				seen[finding.Signature()] = true
				s.records = append(s.records, Record{Kind: f.Case.Kind, Case: f.Case, Finding: finding, Exchanges: out.exchanges, Hits: 1, File: path})
			}
		}
	}
	saveDir := s.cfg.ReplayDir
	s.cfg.ReplayDir = "" // a replay writes no new replay file
	res := s.finish(ctx, rec, started, 0, "")
	s.cfg.ReplayDir = saveDir
	return res
}

// cannotReplay says why this run cannot send a case ("" when it can).
func (s *session) cannotReplay(c gen.Case) string {
	switch {
	case (c.Kind == gen.KindCreate || c.Kind == gen.KindEdit || (c.Kind == gen.KindRefused && c.Target != "edit" && c.Target != "delete")) && !s.fx.CanWrite():
		return "it writes, and this run is read-only (give --auth-token, without --read-only)"
	case c.Kind == gen.KindSettings || c.Target == "settings":
		if !s.site.SettingsWrites {
			return "it changes the settings: give --allow-settings-write"
		}
	case c.Kind == gen.KindBody && c.WithTokens && !s.fx.CanWrite():
		return "it may create a page, and this run is read-only"
	}
	return ""
}
