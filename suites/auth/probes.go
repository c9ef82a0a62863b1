package auth

import (
	"net/http"

	"github.com/conformance-suite/conformance/internal/framework"
)

// refusals are the statuses that answer probe p sent without a valid
// authentication token: 401 (5.5), and for a probe naming a page that does
// not exist also 404 (4.4, 4.5, 7: no page has the key), since the spec
// does not say which of the two a server checks first (the rules'
// Reading). The API token is valid, so no early error comes first.
func refusals(p framework.Probe) []int {
	if p.NamesMissingPage() {
		return []int{http.StatusUnauthorized, http.StatusNotFound}
	}
	return []int{http.StatusUnauthorized}
}

// caseName tells the spec of probe p apart from others of its rule.
func caseName(p framework.Probe) string {
	if p.NamesMissingPage() {
		return string(p.Endpoint) + ", a page that does not exist"
	}
	return string(p.Endpoint)
}
