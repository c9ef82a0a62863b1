package client

import (
	"fmt"
	"net/http"

	"github.com/tidwall/gjson"
)

// A request can fail below the API: the network loses it or its answer,
// or the web server in front answers for a busy or absent API (429, 502,
// 503, 504 in its own words). Such an exchange shows nothing about the
// API's rules, so a rule it decides could not be finished, never failed.

// frontStatuses are the statuses a front gives for an API it cannot reach
// or that is too busy.
var frontStatuses = map[int]bool{
	http.StatusTooManyRequests: true, http.StatusBadGateway: true,
	http.StatusServiceUnavailable: true, http.StatusGatewayTimeout: true,
}

// Fault says why an exchange got no answer from the API, "" when it got
// one: a request sent that got no status (reset, timeout, answer lost), or
// a 429, 502, 503 or 504 without the API's JSON envelope (an object with a
// message). A request never sent (read-only refusal, stopped writes, the
// run's end), one the run interrupted, and an answer that is not HTTP are
// not the network's.
func (e *Exchange) Fault() string {
	if e == nil || !e.Sent {
		return ""
	}
	if e.Status == 0 {
		// An answer that is not HTTP, or a TLS or name failure, is the
		// server's or the setup's doing, not a network that lost it.
		switch FailureKind(e.Err) {
		case KindTimeout, KindClosed, KindRefused:
			return "no answer: " + Cause(e.Err)
		}
		return ""
	}
	if frontStatuses[e.Status] && !e.apiEnvelope() {
		return fmt.Sprintf("HTTP %d %s not from the API (no JSON envelope): the server in front answered for it",
			e.Status, http.StatusText(e.Status))
	}
	return ""
}

// apiEnvelope reports whether the body is a JSON object with a string
// message, as every answer of the API is (spec 1, 7).
func (e *Exchange) apiEnvelope() bool {
	body := e.Body()
	if body == nil {
		return e.IsJSON()
	}
	m := gjson.GetBytes(body, "message")
	return gjson.ValidBytes(body) && gjson.ParseBytes(body).IsObject() && m.Type == gjson.String
}
