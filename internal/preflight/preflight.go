// Package preflight checks that a target is usable before any spec runs:
// reachable, answering JSON under /api/, accepting the API token and (when
// given) the authentication token. Each problem is one sentence for the
// user; the runner exits 3 on any.
package preflight

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"

	"github.com/conformance-suite/conformance/internal/client"
)

// Problem is why the target cannot be checked.
type Problem struct {
	Sentence string           // what is wrong and what to do, in one sentence
	Exchange *client.Exchange // the evidence, may be nil
}

func (p *Problem) Error() string { return p.Sentence }

// Check runs the preflight requests and returns the first problem, or nil.
func Check(ctx context.Context, c *client.Client) *Problem {
	c.SetScope("preflight")
	base := c.BaseURL()
	ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: url.Values{"numberOfItems": {"1"}}})
	if ex.Err != nil {
		return &Problem{Sentence: transportSentence(base, ex.Err), Exchange: ex}
	}
	if !ex.IsJSON() {
		return &Problem{Sentence: notJSONSentence(base, ex), Exchange: ex}
	}
	switch {
	case ex.Status == http.StatusUnauthorized:
		return &Problem{Sentence: fmt.Sprintf("The API token was refused (GET %s/api/pages answered 401 %q): check --token or CONFORMANCE_TOKEN against the API plugin's settings.", base, ex.Get("message").String()), Exchange: ex}
	case ex.Status == http.StatusBadRequest:
		return &Problem{Sentence: fmt.Sprintf("The target answered 400 %q to a request carrying the API token: it does not read the token from the query string as the spec says.", ex.Get("message").String()), Exchange: ex}
	case ex.Status >= 500:
		return &Problem{Sentence: fmt.Sprintf("The target answered %d to GET /api/pages, the simplest request of the spec: the server is failing.", ex.Status), Exchange: ex}
	case ex.Status >= 300 && ex.Status != http.StatusOK:
		// Redirect loops and other oddities land here; rule specs judge 2xx variants.
		if ex.Status >= 300 && ex.Status < 400 {
			return &Problem{Sentence: fmt.Sprintf("GET %s/api/pages answered a redirect (%d to %s) that was not followed: point --base-url at the final address.", base, ex.Status, ex.Header.Get("Location")), Exchange: ex}
		}
	}
	if c.HasAuth() {
		ax := c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens})
		if ax.Err != nil {
			return &Problem{Sentence: transportSentence(base, ax.Err), Exchange: ax}
		}
		if ax.Status == http.StatusUnauthorized {
			return &Problem{Sentence: "The authentication token was refused (GET /api/settings answered 401): it must be the token of an enabled Administrator (profile > Security); check --auth-token or CONFORMANCE_AUTH_TOKEN, or drop it for a read-only run.", Exchange: ax}
		}
	}
	return nil
}

func transportSentence(base string, err error) string {
	var dnsErr *net.DNSError
	msg := err.Error()
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("Cannot reach %s: the connection was refused (is the server running, and is the port right?).", base)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("Cannot reach %s: the host name %q does not resolve.", base, dnsErr.Name)
	case strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:"):
		return fmt.Sprintf("Cannot reach %s over TLS: the certificate is not trusted (%s); pass --ca-cert FILE, or --insecure for a test site.", base, lastPart(msg))
	case strings.Contains(msg, "request timeout"):
		return fmt.Sprintf("Cannot reach %s: no answer within the request timeout; raise --request-timeout if the site is just slow.", base)
	case strings.Contains(msg, "redirect"):
		return fmt.Sprintf("Cannot check %s: %s.", base, lastPart(msg))
	case errors.Is(err, context.Canceled):
		return "The run was cancelled before the target answered."
	}
	return fmt.Sprintf("Cannot reach %s: %s.", base, lastPart(msg))
}

func notJSONSentence(base string, ex *client.Exchange) string {
	ct := ex.MediaType()
	body := strings.ToLower(string(ex.Body()))
	switch {
	case ex.Truncated:
		return fmt.Sprintf("GET %s/api/pages answered a body larger than the read limit: this is not the API.", base)
	case strings.Contains(ct, "html") || strings.Contains(body, "<html") || strings.Contains(body, "<!doctype"):
		return fmt.Sprintf("GET %s/api/pages answered %d with an HTML page instead of JSON: the API plugin is probably not activated (admin panel: Plugins > API > Activate), or --base-url is not the site root.", base, ex.Status)
	case ex.BodySize() == 0:
		return fmt.Sprintf("GET %s/api/pages answered %d with an empty body instead of JSON: is this the API's site?", base, ex.Status)
	}
	return fmt.Sprintf("GET %s/api/pages answered %d with a body that is not valid JSON (Content-Type %q): the target is not serving the API.", base, ex.Status, ex.Header.Get("Content-Type"))
}

func lastPart(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		return msg[i+2:]
	}
	return msg
}
