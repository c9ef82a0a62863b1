package match

import (
	"testing"

	"github.com/onsi/gomega/types"
)

// A run makes hundreds of matchers; each must use a message template
// parsed once (MessageTemplate), not parse its own. Making one allocates
// about a dozen objects; parsing its template would add fifty or more.
func TestMatchersParseNoTemplate(t *testing.T) {
	const most = 30
	for name, newMatcher := range map[string]func() types.GomegaMatcher{
		"HaveHTTPStatus": func() types.GomegaMatcher { return HaveHTTPStatus(200) },
		"MatchSchema":    func() types.GomegaMatcher { return MatchSchema("page.json") },
		"BeJSONObject":   BeJSONObject,
		"BeEncodedOnce":  func() types.GomegaMatcher { return BeEncodedOnce("a & b") },
		"DecodeTo":       func() types.GomegaMatcher { return DecodeTo("a & b") },
	} {
		if n := testing.AllocsPerRun(20, func() { _ = newMatcher() }); n > most {
			t.Errorf("making %s allocates %.0f objects, want at most %d: is its message template parsed for each matcher?", name, n, most)
		}
	}
}
