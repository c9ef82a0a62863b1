package explore

import (
	"bytes"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestSmokeMutants(t *testing.T) {
	for _, m := range []reference.Mutant{reference.TagsAsString, reference.DoubleEncodeForm, reference.BadPaging500, reference.UntaggedBeforePagination, reference.RefusedWriteApplies, reference.SettingsPutBlanksUnnamed, reference.TraversalAllowed, reference.MissingToken401} {
		srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{m}}, nil)
		var out bytes.Buffer
		res := Run(t.Context(), Config{Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken},
			SettingsWrites: true, Seed: 1, ReplayDir: t.TempDir()}, &out)
		var sigs []string
		for _, r := range res.Records {
			f, c := r.Case.Size()
			sigs = append(sigs, r.Finding.Signature()+" "+string(r.Kind)+" "+string(rune('0'+f))+"/"+string(rune('0'+c%10)))
		}
		t.Logf("%s: exit %d findings %v", m, res.Exit, sigs)
	}
}
