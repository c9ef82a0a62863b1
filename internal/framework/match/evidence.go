package match

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// The evidence kit: how suites name what they saw in messages and reasons,
// one way everywhere.

// Show renders a JSON value for a message: its raw text, or "missing".
func Show(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return r.Raw
}

// maxOutcomeBody bounds the body excerpt Outcome shows.
const maxOutcomeBody = 200

// Outcome summarises an exchange in a few words ("HTTP 404 {...}", "no
// answer: ..."), for a not-checked reason or a teardown problem.
func Outcome(ex *client.Exchange) string {
	switch {
	case ex == nil:
		return "no request was sent"
	case ex.Err != nil && !ex.Sent:
		return "not sent: " + client.Cause(ex.Err)
	case ex.Err != nil && ex.Status == 0:
		return "no answer: " + client.Cause(ex.Err)
	case ex.Err != nil:
		return fmt.Sprintf("HTTP %d, then %s", ex.Status, client.Cause(ex.Err))
	}
	body := ex.BodyExcerpt()
	if len(body) > maxOutcomeBody {
		body = body[:maxOutcomeBody] + "…"
	}
	return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", ex.Status, body))
}

// Uniq returns in without repeats, in the order of first appearance.
func Uniq[T comparable](in []T) []T { return verdict.Uniq(in) }

// TinyPNG is a valid 1x1 PNG image, for uploads whose content does not
// matter.
func TinyPNG() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	return b.Bytes()
}

// Indent prefixes every line of s, for a text shown inside another.
func Indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}
