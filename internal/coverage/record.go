package coverage

import (
	"slices"
	"sync"
)

// Recorder collects the marks of one run: which rule's assertion filled
// which cell, how many times. Every method is safe for concurrent use (the
// cross-cutting checks mark from the goroutines that made the requests).
type Recorder struct {
	mu    sync.Mutex
	marks map[ID]map[string]int
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{marks: map[ID]map[string]int{}} }

// Mark records that rule's assertion exercised cell id on real data. A
// cell of the write section takes only a rule the table names for it: its
// judges mark every view they judged for every kind of write they
// followed, and the table says which rule can see which write there.
func (r *Recorder) Mark(id ID, rule string) {
	if r == nil || rule == "" {
		return
	}
	if c, ok := Lookup(id); ok && IsWriteCell(id) && !slices.Contains(c.Rules, rule) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.marks[id]
	if m == nil {
		m = map[string]int{}
		r.marks[id] = m
	}
	m[rule]++
}

// MarkIfEligible marks id for rule only when the table names rule among
// the cell's rules: what a spec's exchanges show (a query parameter sent,
// a token left out) fills a cell only when the spec's rule is one that
// states what that input does.
func (r *Recorder) MarkIfEligible(id ID, rule string) {
	if c, ok := Lookup(id); ok && slices.Contains(c.Rules, rule) {
		r.Mark(id, rule)
	}
}

// Marks returns a copy of the marks: cell, then rule, then how many.
func (r *Recorder) Marks() map[ID]map[string]int {
	out := map[ID]map[string]int{}
	if r == nil {
		return out
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, m := range r.marks {
		c := map[string]int{}
		for rule, n := range m {
			c[rule] = n
		}
		out[id] = c
	}
	return out
}

// Token use and placement, as Request reports them.
const (
	UseValid   = "valid"
	UseMissing = "missing"
	UseWrong   = "wrong"

	InQuery    = "query"
	InBody     = "body"     // the JSON, form or multipart body of a POST or PUT
	InJSONBody = "jsonbody" // the JSON body of a DELETE
	InHeader   = "header"   // not a placement of the spec's
)

// Request is what the map needs of one exchange a spec asserted on: what
// was sent and whether it was accepted.
type Request struct {
	Method string
	// Endpoint is the path with any key as a placeholder
	// ("/api/pages/{key}").
	Endpoint string
	// Query names the query parameters sent, the tokens aside.
	Query []string
	// TokenUse and AuthUse say what was sent of each token (UseValid,
	// UseMissing, UseWrong); TokenIn and AuthIn where (InQuery, InBody, ...;
	// "" when missing).
	TokenUse, AuthUse string
	TokenIn, AuthIn   string
	Status            int
}

// queryParams are the parameters of 4.1 besides the token.
var queryParams = []string{"published", "static", "sticky", "draft", "scheduled", "untagged", "numberOfItems", "pageNumber"}

// Judged marks what the requests a spec of rule asserted on show of the
// query parameters of 4.1 and of where the tokens travel (5.3, 5.4), for
// the cells whose rules include rule.
func (r *Recorder) Judged(rule string, reqs []Request) {
	for _, q := range reqs {
		for _, id := range q.cells() {
			r.MarkIfEligible(id, rule)
		}
	}
}

// cells lists the query and token cells a request shows.
func (q Request) cells() []ID {
	var out []ID
	ok := q.Status >= 200 && q.Status < 300
	refused := q.Status >= 400 && q.Status < 500
	if q.Method == "GET" && q.Endpoint == "/api/pages" && ok {
		for _, p := range queryParams {
			w := Omitted
			if slices.Contains(q.Query, p) {
				w = Sent
			}
			out = append(out, CellID("query", p, w))
		}
	}
	if row := tokenRow("token", q.Method, q.Endpoint, q.TokenUse, q.TokenIn); row != "" {
		if w, judged := tokenWay(q.TokenUse, ok, refused); judged {
			out = append(out, CellID("token", row, w))
		}
	}
	// The authentication token is judged where the API token was valid:
	// a refusal then is the authentication token's.
	if row := tokenRow("authentication", q.Method, q.Endpoint, q.AuthUse, q.AuthIn); row != "" && q.TokenUse == UseValid {
		if w, judged := tokenWay(q.AuthUse, ok, refused); judged {
			out = append(out, CellID("token", row, w))
		}
	}
	return out
}

// tokenWay is the way a token sent as use fills its row when the answer
// was a success (ok) or a refusal (refused); false when the answer tells
// nothing of it (a valid token refused, a missing one accepted).
func tokenWay(use string, ok, refused bool) (Way, bool) {
	switch {
	case use == UseValid && ok:
		return Valid, true
	case use == UseMissing && refused:
		return Missing, true
	case use == UseWrong && refused:
		return Wrong, true
	}
	return "", false
}

// tokenRow is the token section's row of a token (param) sent as use, in
// place, with method to endpoint; "" when none fits (tokens in headers,
// the authentication token on a read that does not need it).
func tokenRow(param, method, endpoint, use, place string) string {
	if use == UseMissing {
		// Left out: the place the spec gives it for the method (5.3).
		place = InBody
		if method == "GET" || method == "DELETE" {
			place = InQuery
		}
	}
	if param == "authentication" && method == "GET" && endpoint != "/api/settings" {
		return "" // reads need no authentication token (5.1)
	}
	switch {
	case place == InQuery && (method == "GET" || method == "DELETE"):
		return param + "-query-" + lower(method)
	case place == InBody && (method == "POST" || method == "PUT"):
		return param + "-body-" + lower(method)
	case place == InJSONBody && method == "DELETE":
		return param + "-jsonbody-delete"
	}
	return ""
}

func lower(method string) string {
	switch method {
	case "GET":
		return "get"
	case "DELETE":
		return "delete"
	case "POST":
		return "post"
	case "PUT":
		return "put"
	}
	return method
}
