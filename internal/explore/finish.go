package explore

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/report"
)

// finish undoes what the exploration left (pages, settings), checks the
// site once more (tripwire), saves each finding's replay file and writes
// the summary and the reports. exit and sentence, when set, are the
// verdict of an exploration that could not start.
func (s *session) finish(ctx context.Context, rec *har.Recorder, started time.Time, exit int, sentence string) Result {
	s.sweep(ctx)
	if s.settings != nil {
		s.restoreSettings(ctx, nil) // a settings read that fails is reported
	}
	if tw := s.fx.Tripwire; tw != nil {
		tw.Final(ctx, s.c)
		if trip := tw.Tripped(); trip != nil {
			sentence = trip.Sentence("the exploration", s.fx.Ledger.Pages(), s.c.BaseURL())
			exit = ExitUnusable
		}
	}
	s.judgeSite()
	for i := range s.records {
		if s.records[i].Kind == kindSiteModel {
			continue // no one case shows it: no replay
		}
		if file, err := s.saveReplay(&s.records[i], i+1); err != nil {
			s.notes = append(s.notes, "could not write the replay file: "+err.Error())
		} else {
			s.records[i].File = file
		}
	}
	run := s.buildReport(started, sentence)
	if sentence == "" {
		s.printSummary(run)
	} else {
		fmt.Fprintf(s.out, "\n%s\n", sentence)
	}
	if err := s.writeReports(run, rec); err != nil {
		fmt.Fprintf(s.out, "conformance: %v\n", err)
		// A report not written does not hide a site that lost data.
		if exit != ExitUnusable {
			exit = ExitUsage
		}
	}
	if exit == 0 && len(s.records) > 0 {
		exit = ExitFindings
	}
	_, reached, total := s.behaviour.coverage(s.skippedCells)
	return Result{Exit: exit, Seed: s.cfg.Seed, Records: s.records, Cases: s.cases, Requests: s.c.Seq(), Report: run,
		Stop: s.stop, Covered: [2]int{reached, total}}
}

// writeReports writes each report asked for through the redactor
// (report.Files.Write).
func (s *session) writeReports(run *report.Run, rec *har.Recorder) error {
	var harWrite func(io.Writer) error
	if rec != nil {
		harWrite = func(w io.Writer) error { return s.writeHAR(w, rec, run) }
	}
	return s.cfg.Reports.Write(run, s.c.Redactor(), harWrite)
}

// writeHAR writes the exploration's exchanges as a HAR log; the entries
// of each finding's smallest case say so in their comment.
func (s *session) writeHAR(w io.Writer, rec *har.Recorder, run *report.Run) error {
	h := rec.Build(s.c.Exchanges(), har.Options{Creator: har.Creator{Name: "conformance", Version: s.cfg.SuiteVersion},
		Comment: fmt.Sprintf("conformance explore %s of %s (%s), seed %d, %d requests", run.Meta.RunID, run.Meta.Target, s.mode, s.cfg.Seed, run.Meta.Requests)})
	marks := map[int]string{}
	for _, r := range s.records {
		for _, ex := range r.Exchanges {
			marks[ex.Seq] = fmt.Sprintf("explore finding %s, smallest %s case", r.Finding.Signature(), r.Kind)
		}
	}
	for i := range h.Log.Entries {
		if m, ok := marks[h.Log.Entries[i].Seq]; ok {
			h.Log.Entries[i].Comment = m
		}
	}
	return h.Encode(w)
}
