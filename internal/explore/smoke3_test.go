package explore

import (
	"bytes"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestSmokeBenign(t *testing.T) {
	var opts []reference.Options
	for _, m := range reference.Mutants() {
		if m.Benign {
			opts = append(opts, reference.Options{Mutants: []reference.Mutant{m.Name}})
		}
	}
	for _, p := range reference.Profiles() {
		opts = append(opts, reference.Options{Profile: p.Name})
	}
	opts = append(opts, reference.Options{})
	for _, o := range opts {
		for seed := uint64(1); seed <= 3; seed++ {
			srv := testkit.ReferenceWith(t, o, nil)
			var out bytes.Buffer
			res := Run(t.Context(), Config{Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken},
				SettingsWrites: true, Seed: seed, ReplayDir: t.TempDir()}, &out)
			for _, r := range res.Records {
				t.Errorf("%v %s seed %d: %s %s got %s\n%s", o.Mutants, o.Profile, seed, r.Finding.Signature(), r.Finding.Expected, r.Finding.Got, r.judged())
			}
		}
	}
}
