package explore

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestSmokeMutants(t *testing.T) {
	for _, mi := range reference.Mutants() {
		if !mi.ExploreOnly {
			continue
		}
		m := mi.Name
		srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{m}}, nil)
		var out bytes.Buffer
		res := Run(t.Context(), Config{Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken},
			SettingsWrites: true, Seed: 1, ReplayDir: t.TempDir()}, &out)
		var sigs []string
		for _, r := range res.Records {
			f, c := r.Case.Size()
			ex := r.judged()
			sigs = append(sigs, fmt.Sprintf("%s %s %d/%d hits %d\n    %s %s", r.Finding.Signature(), r.Kind, f, c, r.Hits, ex.RequestLine(), ex.RequestBody))
		}
		t.Logf("%s: exit %d requests %d findings %v", m, res.Exit, res.Requests, sigs)
	}
}
