// Package every judges what every answer of the API keeps (spec sections
// 1, 5.9 and 7): a JSON body with the JSON content type, CORS open to any
// origin, no caching, and the envelope's status and message. The run
// applies them to every exchange it records (suites/protocol adds them to
// crosscutting.Watcher); conformance explore judges every answer with
// them (internal/explore/oracle), and with the two only it judges
// (explore.go: GEN-NO-CRASH, AUTH-NO-TOKEN-IN-ANSWER).
package every

import (
	"net/url"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Checks are the rules every answer keeps, in report order.
func Checks() []rules.Check {
	return []rules.Check{
		{Rule: "GEN-CONTENT-TYPE-JSON", Judge: ContentTypeJSON},
		{Rule: "GEN-BODY-JSON", Judge: BodyJSON},
		{Rule: "GEN-CORS-ANY-ORIGIN", Judge: CORSAnyOrigin},
		{Rule: "GEN-NO-CACHE", Judge: NoCache},
		{Rule: "ENV-STATUS-AGREES", Judge: StatusAgrees},
		{Rule: "ENV-MESSAGE-STRING", Judge: MessageString},
	}
}

var (
	conforms    = rules.Conforms
	cannotJudge = rules.CannotJudge
	violation   = rules.Violation
)

// ContentTypeJSON judges GEN-CONTENT-TYPE-JSON.
func ContentTypeJSON(ex *client.Exchange) rules.Judgement {
	if ex.MediaType() != "application/json" {
		if ct := ex.Header.Values("Content-Type"); len(ct) > 0 {
			return violation("Content-Type is %q, want application/json", strings.Join(ct, ", "))
		}
		return violation("no Content-Type header, want application/json")
	}
	return conforms()
}

// BodyJSON judges GEN-BODY-JSON.
func BodyJSON(ex *client.Exchange) rules.Judgement {
	switch {
	case ex.Truncated || ex.BodyCut:
		// Longer than the read bound, or cut by the connection closing:
		// the suite cannot tell.
		return cannotJudge()
	case ex.IsJSON():
		return conforms()
	case ex.BodySize() == 0:
		return violation("the body is empty, want a JSON document")
	}
	return violation("the body is not a JSON document")
}

// CORSAnyOrigin judges GEN-CORS-ANY-ORIGIN. Echoing the request's Origin
// is the rule's Reading.
func CORSAnyOrigin(ex *client.Exchange) rules.Judgement {
	got := ex.Header.Get("Access-Control-Allow-Origin")
	origin := ex.RequestHeader.Get("Origin")
	switch {
	case got == "*" || (origin != "" && got == origin):
		return conforms()
	case got == "":
		return violation("no Access-Control-Allow-Origin header")
	}
	return violation("Access-Control-Allow-Origin is %q, want *", got)
}

// NoCache judges GEN-NO-CACHE.
func NoCache(ex *client.Exchange) rules.Judgement {
	cc := strings.ToLower(strings.Join(ex.Header.Values("Cache-Control"), ","))
	pragma := strings.ToLower(strings.Join(ex.Header.Values("Pragma"), ","))
	if strings.Contains(cc, "no-store") || strings.Contains(cc, "no-cache") || strings.Contains(pragma, "no-cache") {
		return conforms()
	}
	return violation("no no-cache header (Cache-Control: no-store/no-cache or Pragma: no-cache)")
}

// StatusAgrees judges ENV-STATUS-AGREES.
func StatusAgrees(ex *client.Exchange) rules.Judgement {
	if !jsonObject(ex) {
		return cannotJudge() // judged by GEN-BODY-JSON
	}
	st := ex.Get("status")
	if !st.Exists() {
		// Early errors carry no status (judged by ENV-EARLY-ERROR-SHAPE);
		// a success without one is judged by ENV-SUCCESS-SHAPE.
		return cannotJudge()
	}
	if st.Type != gjson.String {
		return violation("status is %s, want the string \"0\" or \"1\"", st.Raw)
	}
	switch {
	case ex.Status >= 200 && ex.Status < 300 && st.Str != "0":
		return violation("HTTP %d with status %q, want \"0\"", ex.Status, st.Str)
	case ex.Status >= 400 && st.Str != "1":
		return violation("HTTP %d with status %q, want \"1\"", ex.Status, st.Str)
	}
	return conforms()
}

// MessageString judges ENV-MESSAGE-STRING.
func MessageString(ex *client.Exchange) rules.Judgement {
	if !jsonObject(ex) {
		return cannotJudge() // judged by GEN-BODY-JSON and the shape rules
	}
	if uploadSuccess(ex) {
		return cannotJudge() // the response shape of uploads is "not shown" (4.12, 4.13)
	}
	m := ex.Get("message")
	if !m.Exists() {
		return violation("no message field")
	}
	if m.Type != gjson.String {
		return violation("message is %s, want a string", m.Raw)
	}
	return conforms()
}

func jsonObject(ex *client.Exchange) bool { return ex.IsJSON() && ex.JSON().IsObject() }

// uploadSuccess reports a 2xx answer to POST /api/images or POST
// /api/files/{key}, whose body the spec does not show.
func uploadSuccess(ex *client.Exchange) bool {
	if ex.Method != "POST" || ex.Status < 200 || ex.Status > 299 {
		return false
	}
	u, err := url.Parse(ex.URL)
	if err != nil {
		return false
	}
	return strings.HasSuffix(u.Path, "/api/images") || strings.Contains(u.Path, "/api/files/")
}
