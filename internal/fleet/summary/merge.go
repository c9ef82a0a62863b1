package summary

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The files of a summary in its folder.
const (
	JSONFile  = "fleet.json"
	JUnitFile = "fleet-junit.xml"
	HTMLFile  = "fleet.html"
)

// WriteFiles writes the summary's JSON, JUnit and HTML files into dir and
// returns their paths. It writes every file it can and returns the first
// error.
func (s *Summary) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	var first error
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{JSONFile, s.WriteJSON}, {JUnitFile, s.WriteJUnit}, {HTMLFile, s.WriteHTML}} {
		path := filepath.Join(dir, f.name)
		if err := writeFile(path, f.write); err != nil {
			first = errors.Join(first, fmt.Errorf("%s: %w", path, err))
			continue
		}
		paths = append(paths, path)
	}
	return paths, first
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Merge joins the JSON summaries of a fleet's shards into the summary one
// run over the whole targets file would have made: the same sites' lines
// in the targets file's order, the same counts, tallies, verdict and exit
// code. The sites' report paths are made relative to outDir, where the
// merged summary goes. The summaries must come from the same targets file
// (its digest) and suite version, and be distinct shards of one count; a
// shard not given leaves its sites out, which the verdict says and the
// exit code (1 at least) shows. spoolDir is where the merged lines wait
// ("" for the system's temporary folder).
func Merge(paths []string, outDir, spoolDir string) (_ *Summary, err error) {
	if len(paths) == 0 {
		return nil, errors.New("merge needs the JSON summary (fleet.json) of at least one shard")
	}
	outAbs, err := filepath.Abs(outDir)
	if err != nil {
		return nil, err
	}
	var c *Collector
	var first *Fleet
	var start, end time.Time
	present := map[int]string{}
	defer func() {
		if err != nil && c != nil {
			c.sp.Close()
		}
	}()
	for _, p := range paths {
		base, err := filepath.Abs(filepath.Dir(p))
		if err != nil {
			return nil, err
		}
		onHead := func(head *Fleet) error {
			if first == nil {
				first = head
				merged := Fleet{SuiteVersion: head.SuiteVersion, Targets: head.Targets}
				if head.Shards != nil {
					merged.Shards = &Shards{Total: head.Shards.Total}
				}
				var err error
				if c, err = NewCollector(merged, head.Rules, spoolDir); err != nil {
					return err
				}
			}
			if err := compatible(first, head, p, present); err != nil {
				return err
			}
			if start.IsZero() || head.Started.Before(start) {
				start = head.Started
			}
			if e := head.Started.Add(time.Duration(head.Duration)); e.After(end) {
				end = e
			}
			return nil
		}
		_, err = ReadFile(p, onHead, func(s Site) error {
			s.Reports.each(func(r *string) { *r = relink(outAbs, base, *r) })
			return c.Add(s)
		})
		if err != nil {
			return nil, err
		}
	}
	c.head.Started = start
	if c.head.Shards != nil {
		for i := range present {
			c.head.Shards.Present = append(c.head.Shards.Present, i)
		}
		slices.Sort(c.head.Shards.Present)
	}
	return c.Finish(end.Sub(start)), nil
}

// compatible checks that head (from path) is another shard of first's
// fleet, and notes its shard in present.
func compatible(first, head *Fleet, path string, present map[int]string) error {
	switch {
	case head.Targets.Digest != first.Targets.Digest:
		return fmt.Errorf("%s is the summary of another targets file (%s, not %s): merge joins the shards of one fleet", path, head.Targets.Digest, first.Targets.Digest)
	case head.SuiteVersion != first.SuiteVersion:
		return fmt.Errorf("%s was made by suite version %s, not %s: run every shard with the same version", path, head.SuiteVersion, first.SuiteVersion)
	case (head.Shards == nil) != (first.Shards == nil):
		return fmt.Errorf("%s: a summary of the whole fleet cannot be merged with shards", path)
	case head.Shards == nil:
		if len(present) > 0 {
			return fmt.Errorf("%s: two summaries of the whole fleet", path)
		}
		present[0] = path
		return nil
	case head.Shards.Total != first.Shards.Total:
		return fmt.Errorf("%s is one of %d shards, not %d: give the shards of one run", path, head.Shards.Total, first.Shards.Total)
	}
	for _, i := range head.Shards.Present {
		if other, dup := present[i]; dup {
			return fmt.Errorf("%s and %s both hold shard %d/%d", other, path, i, head.Shards.Total)
		}
		present[i] = path
	}
	return nil
}

// relink makes a report path of a summary in base relative to outAbs.
func relink(outAbs, base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(outAbs, filepath.Join(base, p))
	if err != nil {
		return filepath.Join(base, p)
	}
	return filepath.ToSlash(rel)
}
