package settings_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/settings"
)

// TestSettings runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), and checks that they leave the
// settings byte-for-byte as they found them: every spec that changes a
// setting must restore it.
func TestSettings(t *testing.T) {
	RegisterFailHandler(Fail)
	target := frameworktest.Fixture(t)
	if !target.Client.HasAuth() {
		t.Log("no authentication token: the settings cannot be read, so they are not compared")
	}
	before := rawSettings(t, target)
	framework.Install(target)
	settings.Register(target)
	RunSpecs(t, "settings")

	after := rawSettings(t, target)
	if !bytes.Equal(before, after) {
		t.Errorf("the settings specs left the settings changed:\nbefore: %s\nafter:  %s",
			target.Client.Redactor().Bytes(before), target.Client.Redactor().Bytes(after))
	}
	if p := target.Ledger.Problems(); len(p) > 0 {
		t.Errorf("teardown problems: %q", p)
	}
	if target.SettingsWrites && !target.ReadOnly && len(target.Ledger.Settings()) == 0 {
		t.Error("settings writes were allowed but no spec changed (and restored) a setting: the comparison proves nothing")
	}
}

// rawSettings reads GET /api/settings with its own plain HTTP request, so
// the run's exchanges and cross-cutting checks see nothing of it; nil
// without an authentication token.
func rawSettings(t *testing.T, target *framework.Fixture) []byte {
	t.Helper()
	if !target.Client.HasAuth() {
		return nil
	}
	q := url.Values{"token": {target.Client.Token()}, "authentication": {target.Client.AuthToken()}}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, target.Client.BaseURL()+"/api/settings?"+q.Encode(), nil)
	if err != nil {
		t.Fatal("building the settings request failed") // the URL holds the tokens: not printed
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /api/settings failed: %s", target.Client.Redactor().String(err.Error()))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/settings: HTTP %d, %v", resp.StatusCode, err)
	}
	return body
}
