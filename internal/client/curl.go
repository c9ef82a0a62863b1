package client

import (
	"maps"
	"net/http"
	"slices"
	"strings"
)

// curl renders a request as a curl command. Values are double-quoted so
// the token placeholders expand from the environment; everything else that
// the shell would interpret is escaped.
func (c *Client) curl(b *built, r Request) string {
	req, body := b.req, b.body
	var parts []string
	parts = append(parts, "curl", "-sS", "-i")
	if req.Method != http.MethodGet {
		parts = append(parts, "-X", req.Method)
	}
	parts = append(parts, c.quote(req.URL.String()))
	for _, name := range []string{AuthorizationHeader, AuthTokenHeader} {
		for _, v := range req.Header.Values(name) {
			parts = append(parts, "-H", c.quote(name+": "+v))
		}
	}
	switch {
	case len(r.Files) > 0:
		for _, t := range b.bodyTokens {
			parts = append(parts, "-F", c.quote(t[0]+"="+t[1]))
		}
		for _, k := range slices.Sorted(maps.Keys(r.Form)) {
			for _, v := range r.Form[k] {
				parts = append(parts, "-F", c.quote(k+"="+v))
			}
		}
		for _, f := range r.Files {
			spec := f.Field + "=@" + f.Name
			if f.MIMEType != "" {
				spec += ";type=" + f.MIMEType
			}
			parts = append(parts, "-F", c.quote(spec))
		}
	default:
		if ct := req.Header.Get("Content-Type"); ct != "" {
			parts = append(parts, "-H", c.quote("Content-Type: "+ct))
		}
		if len(body) > 0 {
			parts = append(parts, "--data-raw", c.quote(string(body)))
		}
	}
	return strings.Join(parts, " ")
}

var shellEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)

func (c *Client) quote(s string) string {
	s = shellEscaper.Replace(c.redactor.String(s))
	// Let the placeholders expand.
	for _, p := range []string{TokenPlaceholder, AuthTokenPlaceholder} {
		s = strings.ReplaceAll(s, shellEscaper.Replace(p), p)
	}
	return `"` + s + `"`
}
