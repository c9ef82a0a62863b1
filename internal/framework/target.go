// Package framework is what every suite package stands on: the Fixture (the
// one client, the run's mode and marker, the ledger of what the run
// created), the rule-naming wrapper around ginkgo.It, the matchers that
// print the exchange, and the suite-wide nodes (registered once, by
// Install).
//
// There is no package-level state: a runner builds one Fixture, passes it to
// Install and to each suite's Register function, then calls RunSpecs.
package framework

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/spec"
)

// MarkerPrefix starts the slug of everything a run creates; `conformance
// cleanup` removes pages whose key starts with it, and only those.
const MarkerPrefix = "conformance-"

// Options is the part of the run's configuration that specs read.
type Options struct {
	// ReadOnly: no request that could change the target is sent.
	ReadOnly bool
	// SettingsWrites allows PUT /api/settings (changed values are restored).
	SettingsWrites bool
	// RunID distinguishes this run's resources; generated when empty.
	RunID string
}

// Fixture is one run as the specs see it: the client, the catalogue, the run's mode and marker, and the ledger of what the run created.
type Fixture struct {
	Client    *client.Client
	Catalogue *spec.Catalogue
	Options
	Ledger   *Ledger
	Protocol *Protocol

	mu           sync.Mutex
	bugs         []string
	observations []string
	report       *types.Report
}

// New builds the target for one run.
func New(c *client.Client, opts Options) *Fixture {
	if opts.RunID == "" {
		opts.RunID = NewRunID(time.Now())
	}
	t := &Fixture{Client: c, Catalogue: spec.All(), Options: opts, Ledger: &Ledger{}}
	t.Protocol = NewProtocol(c.BaseURL())
	c.OnExchange(t.Protocol.Observe)
	return t
}

// NewRunID returns a short, sortable, unique run ID such as
// "20261121t2350-3fa9c1".
func NewRunID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return strings.ToLower(now.UTC().Format("20060102t1504")) + "-" + hex.EncodeToString(b)
}

// Marker returns a slug for something this run creates:
// "conformance-<run-id>-<name>".
func (t *Fixture) Marker(name string) string {
	return MarkerPrefix + t.RunID + "-" + name
}

// CanWrite reports whether the run may create, edit and delete pages.
func (t *Fixture) CanWrite() bool { return !t.ReadOnly && t.Client.HasAuth() }

// Observe records an informational observation: something the spec leaves
// open that a reader may want to know (never a failure).
func (t *Fixture) Observe(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.Client.Redactor().String(fmt.Sprintf(format, args...))
	for _, o := range t.observations {
		if o == s {
			return
		}
	}
	t.observations = append(t.observations, s)
}

// Observations returns what Observe recorded.
func (t *Fixture) Observations() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.observations...)
}

// Bugs returns mistakes in how specs were registered (unknown rule IDs and
// the like). A runner refuses to start while there are any.
func (t *Fixture) Bugs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.bugs...)
}

func (t *Fixture) recordBug(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bugs = append(t.bugs, fmt.Sprintf(format, args...))
}

// Report returns the Ginkgo report stashed after the suite ran (nil before).
func (t *Fixture) Report() *types.Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.report
}

func (t *Fixture) setReport(r types.Report) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.report = &r
}

// markerPattern matches a key segment made by Marker. It ignores case: a
// server may keep the case of a title it derives a slug from.
var markerPattern = regexp.MustCompile(`(?i)^` + MarkerPrefix + `\d{8}t\d{4}-[0-9a-f]{6}-`)

// IsRunMarked reports whether a page key was made by a conformance run: its
// first segment starts with a run marker (runs only create children under
// parents they made). Keys people choose, even ones starting with
// "conformance-", do not match, and neither does a marked child under a
// person's page: deleting "parent/child" deletes the parent on some
// servers (the previous release does).
func IsRunMarked(key string) bool {
	return markerPattern.MatchString(strings.Split(key, "/")[0])
}

// HasRunMarker reports whether key's first segment carries this run's
// marker (ignoring case).
func (t *Fixture) HasRunMarker(key string) bool {
	return strings.HasPrefix(strings.ToLower(strings.Split(key, "/")[0]), strings.ToLower(t.Marker("")))
}
