package reference

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

// Options configures a Server.
type Options struct {
	// Token is the API token (parameter "token"); required.
	Token string
	// AuthToken is the administrator's authentication token (parameter
	// "authentication"); required.
	AuthToken string
	// Mutants names the mutants, benign variants and hazards to enable
	// (see Mutants); an unknown name makes New fail.
	Mutants []Mutant
	// Profile, when set, enables the benign variants of a profile (see
	// Profiles) besides Mutants; an unknown name makes New fail.
	Profile Profile
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// AllowedOrigins, when set, restricts cross-origin access: an answer to
	// a request whose Origin is one of them echoes it (with Vary: Origin),
	// any other gets no Access-Control-Allow-Origin. Unset, every answer
	// allows any origin (spec 5.9).
	AllowedOrigins []string
	// StorageDir, when set, keeps the pages, tags, categories and settings
	// in JSON index files in this directory (created when missing; New
	// seeds it), read and rewritten like the host's: requests side by side
	// lose data (see "Storage in files" in the package doc). Unset, they
	// live in memory under a mutex.
	StorageDir string
	// StorageWorkTime is how long a write request works between reading
	// the index files and rewriting them (PHP's request handling), in the
	// file mode: 0 is DefaultStorageWorkTime, negative is none.
	StorageWorkTime time.Duration
	// StorageChunkPause is the pause before each of the chunks that
	// rewrite an index file after its truncation, in the file mode: 0 is
	// DefaultStorageChunkPause, negative is none.
	StorageChunkPause time.Duration
	// Seed, when set, changes the seed data before the server loads it: a
	// big site (GeneratedSite), a long description.
	Seed func(*fixtures.Seed)
}

// New returns a server seeded from the fixtures, with fresh state.
func New(opts Options) (*Server, error) {
	if opts.Token == "" || opts.AuthToken == "" {
		return nil, errors.New("reference: Options.Token and Options.AuthToken are required")
	}
	variants, err := profileVariants(opts.Profile)
	if err != nil {
		return nil, err
	}
	enabled, err := resolveMutants(slices.Concat(opts.Mutants, variants))
	if err != nil {
		return nil, err
	}
	seed, err := fixtures.Load()
	if err != nil {
		return nil, err
	}
	if opts.Seed != nil {
		opts.Seed(seed)
	}
	s := &Server{
		opts:     opts,
		now:      opts.Now,
		mutants:  enabled,
		cells:    enabledCells(enabled),
		users:    slices.Clone(seed.Users),
		up:       &uploads{files: map[string][]*fileRec{}, images: map[string]bool{}},
		workTime: orDefault(opts.StorageWorkTime, DefaultStorageWorkTime),
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.writeCells = enabledWriteCells(s.cells)
	idx := newIndexes()
	if err := (&view{s, idx, s.up}).load(seed); err != nil {
		return nil, err
	}
	// What the server started with (cellviews.go): copies, since writes in
	// memory change a page in place (a child renamed with its parent, a
	// custom field stored).
	s.seedSeq, s.seedPages = s.up.uploadSeq, make(map[string]*page, len(idx.pages))
	for k, p := range idx.pages {
		s.seedPages[k] = p.clone()
	}
	if opts.StorageDir == "" {
		s.mem = idx
		return s, nil
	}
	s.disk = newDisk(opts.StorageDir, orDefault(opts.StorageChunkPause, DefaultStorageChunkPause))
	if err := s.disk.seed(idx); err != nil {
		return nil, fmt.Errorf("reference: storage directory: %w", err)
	}
	return s, nil
}

// orDefault is d, or def when d is 0.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
