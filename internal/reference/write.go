package reference

import (
	"net/http"
	"strconv"
)

// write sends a response. Every response, success or error, carries the
// JSON content type, the CORS header and the no-cache headers.
func (s *Server) write(w http.ResponseWriter, r *http.Request, resp response) {
	resp = s.statusMutants(r, resp)
	s.setHeaders(w.Header(), r, resp)
	var out []byte
	switch body := s.shapeBody(resp); {
	case resp.raw != nil:
		out = resp.raw
	case body != nil:
		enc := &encoder{
			reverse:    s.mutated(BenignKeyOrder),
			extra:      s.mutated(BenignExtraFields),
			escSlashes: s.mutated(BenignEscapedSlashes),
		}
		out = append(enc.encode(body), '\n')
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(resp.code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(out)
	}
}

// statusMutants applies the mutants of the status code, and the early
// errors' status field on every request but GET /api/pages.
func (s *Server) statusMutants(r *http.Request, resp response) response {
	if resp.kind == kindHandlerError && s.mutated(HandlerErrors200) {
		resp.code = http.StatusOK
	}
	if resp.code == http.StatusUnauthorized && s.mutated(Status403InsteadOf401) {
		resp.code = http.StatusForbidden
	}
	if resp.kind == kindEarlyError && s.mutated(StatusOnOtherEarlyErrors) && !(r.Method == http.MethodGet && r.URL.Path == "/api/pages") {
		resp.body = append(obj{{"status", "1"}}, resp.body...)
	}
	return resp
}

// setHeaders sets the headers of resp but Content-Length.
func (s *Server) setHeaders(h http.Header, r *http.Request, resp response) {
	isErr := resp.code >= 400
	ct := "application/json"
	if s.mutated(BenignCharset) {
		ct = "application/json; charset=utf-8"
	}
	if s.mutated(TextHTMLOnErrors) && isErr {
		ct = "text/html; charset=UTF-8"
	}
	h.Set("Content-Type", ct)
	allowOrigin, varies := s.allowOrigin(r)
	if varies {
		h.Add("Vary", "Origin")
	}
	if allowOrigin != "" && !(isErr && s.mutated(NoCORSOnErrors)) {
		h.Set("Access-Control-Allow-Origin", allowOrigin)
	}
	if resp.code == http.StatusNoContent {
		// The answer to a CORS preflight: no body, no media type.
		h.Del("Content-Type")
		h.Set("Access-Control-Allow-Methods", preflightMethods)
		h.Set("Access-Control-Allow-Headers", preflightHeaders)
	}
	if !(isErr && s.mutated(NoCacheOnlyOnSuccess)) && !(!resp.authed && s.mutated(NoCacheOnlyWithAuth)) {
		h.Set("Cache-Control", "no-store, no-cache, must-revalidate")
		h.Set("Pragma", "no-cache")
		h.Set("Expires", "Thu, 19 Nov 1981 08:52:00 GMT")
	}
	if resp.allow != "" {
		h.Set("Allow", resp.allow)
	}
	if s.mutated(BenignExtraHeaders) {
		h.Set("X-Powered-By", "content-api-reference")
		h.Set("X-Request-Id", randomHex(8))
		h.Set("Vary", "Origin")
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
		h.Set("X-Content-Type-Options", "nosniff")
	}
}

// shapeBody applies the envelope-level mutants.
func (s *Server) shapeBody(resp response) obj {
	body := resp.body
	if body == nil {
		return nil
	}
	if reword := s.rewording(); reword != nil {
		for i := range body {
			if msg, ok := body[i].v.(string); ok && body[i].k == "message" {
				body = append(obj(nil), body...) // the handler's obj may be shared
				body[i].v = reword(msg, resp.kind)
				break
			}
		}
	}
	switch resp.kind {
	case kindEarlyError:
		if s.mutated(StatusFieldOnEarlyErrors) {
			body = append(obj{{"status", "1"}}, body...)
		}
	case kindHandlerError:
		if s.mutated(StatusZeroOnErrors) {
			body = body.set("status", "0")
		}
		if s.mutated(HandlerErrorsWithoutStatus) {
			body = body.without("status")
		}
	case kindSuccess:
		if s.mutated(StatusAsNumber) {
			body = body.set("status", 0)
		}
		if s.mutated(MessageNullOnSuccess) {
			body = body.set("message", nil)
		}
	}
	return body
}
