package every

import (
	"net/http"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// The rules of every answer that only conformance explore judges (their
// catalogue rows are ExploreOnly): a client's input never makes the
// server fail, and no answer carries a token.

// MinTokenToSearch is the shortest token NoTokenEcho looks for: a shorter
// one could occur in an answer by chance.
const MinTokenToSearch = 16

// NoCrash judges GEN-NO-CRASH (4, 7, 9.3): no answer is 5xx, except the
// 500 of a delete that failed after the page was found (4.5).
func NoCrash(ex *client.Exchange) rules.Judgement {
	if ex.Status >= 500 && !(ex.Method == http.MethodDelete && ex.Status == http.StatusInternalServerError) {
		return violation("HTTP %d", ex.Status)
	}
	return conforms()
}

// NoTokenEcho judges AUTH-NO-TOKEN-IN-ANSWER (2.4, 5) for one of the run's
// tokens: it is neither in the answer's body nor in its headers. The
// client records an answer's headers redacted: a token a header carried
// reads there as the client's placeholder for it. A token shorter than
// MinTokenToSearch is not looked for.
func NoTokenEcho(ex *client.Exchange, token string) rules.Judgement {
	if len(token) < MinTokenToSearch {
		return cannotJudge()
	}
	var headers strings.Builder
	for _, vs := range ex.Header {
		for _, v := range vs {
			headers.WriteString(v + "\n")
		}
	}
	h := headers.String()
	redacted := strings.Contains(h, client.TokenPlaceholder) || strings.Contains(h, client.AuthTokenPlaceholder)
	if strings.Contains(string(ex.Body()), token) || strings.Contains(h, token) || redacted {
		return violation("the answer carries one of the run's tokens")
	}
	return conforms()
}
