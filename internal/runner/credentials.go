package runner

import (
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/preflight"
)

// This file reports where the run's tokens went (--credentials) and what
// the preflight observed of CORS: on the console and as observations of
// the report.

// credentialsPrefix starts the report's observations on credentials.
const credentialsPrefix = "credentials: "

// placementSummary says where the tokens went, and in header mode lists
// the placement probes (client.Client.PlacementProbes): the requests that
// carried them in the URL or body because they check the spec's placement
// rules (5.3, 5.4), each with its rule. nil in params mode, where every
// request carries them as the spec says.
func placementSummary(c *client.Client) []string {
	if c.CredentialsPlacement() != client.CredentialsInHeader {
		return nil
	}
	var probes []string
	for _, ex := range c.Exchanges() {
		if !ex.PlacementProbe || !ex.Sent {
			continue
		}
		where := "body"
		if u, err := url.Parse(ex.URL); err == nil && u.Query().Has("token") {
			where = "query string"
		}
		probes = append(probes, fmt.Sprintf("  %s %s (%s; tokens in the %s)", ex.Method, ex.URL, ruleOf(ex.Scope), where))
	}
	if len(probes) == 0 {
		return []string{"the tokens went in headers (--credentials header); no request carried them in the URL or body."}
	}
	return append([]string{fmt.Sprintf("the tokens went in headers (--credentials header), except in %d placement "+
		"probe(s), which carried them in the URL or body to check the spec's placement rules (5.3, 5.4):", len(probes))},
		probes...)
}

// ruleID finds the rule ID in a spec's text ("... [AUTH-TOKEN-IN-BODY] ...").
var ruleID = regexp.MustCompile(`\[([A-Z0-9]+(?:-[A-Z0-9]+)+)\]`)

// ruleOf is the rule whose spec sent an exchange (its scope), or the
// scope itself.
func ruleOf(scope string) string {
	if m := ruleID.FindStringSubmatch(scope); m != nil {
		return m[1]
	}
	return scope
}

// printPlacementProbes prints placementSummary after the run's summary.
func printPlacementProbes(out io.Writer, c *client.Client) {
	if lines := placementSummary(c); len(lines) > 0 {
		fmt.Fprintf(out, "Credentials: %s\n", strings.Join(lines, "\n"))
	}
}

// credentialsNotes are the report's observations on credentials: the
// preflight's sentence on header credentials, and placementSummary.
func credentialsNotes(sentence string, c *client.Client) []string {
	var notes []string
	if sentence != "" {
		notes = append(notes, credentialsPrefix+sentence)
	}
	for _, l := range placementSummary(c) {
		notes = append(notes, credentialsPrefix+strings.TrimSpace(l))
	}
	return notes
}

// printCORS prints the CORS observations before the specs run.
func printCORS(out io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(out, "CORS, what a browser client of the API meets (informational, never a failure):")
	for _, n := range notes {
		fmt.Fprintf(out, "  - %s\n", strings.TrimPrefix(n, preflight.CORSPrefix))
	}
}
