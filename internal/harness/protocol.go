package harness

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
)

// Protocol judges every recorded exchange against the cross-cutting rules
// of spec sections 1, 5.9 and 7 (Content-Type, JSON body, CORS, no-cache,
// envelope status and message). No spec can forget these checks, and one
// missing header gives one failure per rule, not one per request.
type Protocol struct {
	apiPrefix string
	mu        sync.Mutex
	tallies   map[string]*Tally
}

// Tally is how one cross-cutting rule fared over the run.
type Tally struct {
	Checked    int
	Violations int
	Examples   []Violation // the first few
}

// Violation is one response that broke a rule.
type Violation struct {
	Problem  string
	Exchange string // rendered, redacted
}

// maxExamples bounds the examples kept per rule.
const maxExamples = 5

// ProtocolCheck is one cross-cutting rule's test of a response; it returns
// "" when the exchange conforms, or what is wrong.
type ProtocolCheck struct {
	Rule  string
	Check func(ex *client.Exchange) string
}

// ProtocolChecks are the cross-cutting rules, in report order.
var ProtocolChecks = []ProtocolCheck{
	{"GEN-CONTENT-TYPE-JSON", func(ex *client.Exchange) string {
		if ex.MediaType() != "application/json" {
			return fmt.Sprintf("Content-Type is %q, want application/json", ex.Header.Get("Content-Type"))
		}
		return ""
	}},
	{"GEN-BODY-JSON", func(ex *client.Exchange) string {
		if !ex.IsJSON() {
			if ex.BodySize() == 0 {
				return "the body is empty, want a JSON document"
			}
			return "the body is not a JSON document"
		}
		return ""
	}},
	{"GEN-CORS-ANY-ORIGIN", func(ex *client.Exchange) string {
		got := ex.Header.Get("Access-Control-Allow-Origin")
		origin := ex.RequestHeader.Get("Origin")
		if got == "*" || (origin != "" && got == origin) {
			return ""
		}
		if got == "" {
			return "no Access-Control-Allow-Origin header"
		}
		return fmt.Sprintf("Access-Control-Allow-Origin is %q, want *", got)
	}},
	{"GEN-NO-CACHE", func(ex *client.Exchange) string {
		cc := strings.ToLower(strings.Join(ex.Header.Values("Cache-Control"), ","))
		pragma := strings.ToLower(strings.Join(ex.Header.Values("Pragma"), ","))
		if strings.Contains(cc, "no-store") || strings.Contains(cc, "no-cache") || strings.Contains(pragma, "no-cache") {
			return ""
		}
		return "no no-cache header (Cache-Control: no-store/no-cache or Pragma: no-cache)"
	}},
	{"ENV-STATUS-AGREES", func(ex *client.Exchange) string {
		if !ex.IsJSON() || !ex.JSON().IsObject() {
			return "" // judged by GEN-BODY-JSON
		}
		st := ex.Get("status")
		if !st.Exists() {
			return ""
		}
		if st.Type != 3 { // gjson.String
			return fmt.Sprintf("status is %s, want the string \"0\" or \"1\"", st.Raw)
		}
		switch {
		case ex.Status >= 200 && ex.Status < 300 && st.Str != "0":
			return fmt.Sprintf("HTTP %d with status %q, want \"0\"", ex.Status, st.Str)
		case ex.Status >= 400 && st.Str != "1":
			return fmt.Sprintf("HTTP %d with status %q, want \"1\"", ex.Status, st.Str)
		}
		return ""
	}},
	{"ENV-MESSAGE-STRING", func(ex *client.Exchange) string {
		if !ex.IsJSON() || !ex.JSON().IsObject() {
			return ""
		}
		m := ex.Get("message")
		if !m.Exists() {
			return "no message field"
		}
		if m.Type != 3 {
			return fmt.Sprintf("message is %s, want a string", m.Raw)
		}
		return ""
	}},
}

// NewProtocol judges exchanges whose URL lies under baseURL/api/.
func NewProtocol(baseURL string) *Protocol {
	u, _ := url.Parse(baseURL)
	prefix := "/api/"
	if u != nil {
		prefix = strings.TrimRight(u.Path, "/") + "/api/"
	}
	return &Protocol{apiPrefix: prefix, tallies: map[string]*Tally{}}
}

// Observe checks one exchange (registered as a client observer).
func (p *Protocol) Observe(ex *client.Exchange) {
	if ex.Err != nil || ex.Status == 0 || ex.Method == "HEAD" {
		return
	}
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasPrefix(u.Path, p.apiPrefix) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range ProtocolChecks {
		t := p.tallies[c.Rule]
		if t == nil {
			t = &Tally{}
			p.tallies[c.Rule] = t
		}
		t.Checked++
		if problem := c.Check(ex); problem != "" {
			t.Violations++
			if len(t.Examples) < maxExamples {
				t.Examples = append(t.Examples, Violation{Problem: problem, Exchange: ex.String()})
			}
		}
	}
}

// Tally returns a copy of how a rule fared so far.
func (p *Protocol) Tally(rule string) Tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.tallies[rule]; t != nil {
		c := *t
		c.Examples = append([]Violation(nil), t.Examples...)
		return c
	}
	return Tally{}
}
