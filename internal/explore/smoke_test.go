package explore

import (
	"bytes"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestSmoke(t *testing.T) {
	srv := testkit.ReferenceWith(t, reference.Options{}, nil)
	before := srv.Storage()
	var out bytes.Buffer
	res := Run(t.Context(), Config{Client: client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken},
		SettingsWrites: true, Seed: 1, ReplayDir: t.TempDir()}, &out)
	t.Log(out.String())
	t.Logf("exit %d cases %v requests %d", res.Exit, res.Cases, res.Requests)
	if d := before.Diff(srv.Storage()); len(d) > 0 {
		t.Errorf("storage changed: %v", d)
	}
}
