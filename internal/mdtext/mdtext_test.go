package mdtext

import (
	"strings"
	"testing"
)

func TestEscapesTargetContent(t *testing.T) {
	for in, want := range map[string]string{
		"a | b":              `a \| b`,
		"<b>x</b>":           "&lt;b&gt;x&lt;/b&gt;",
		"[link](http://x)":   `\[link\](http://x)`,
		"*bold* _it_ `code`": "\\*bold\\* \\_it\\_ \\`code\\`",
		"two\nlines":         "two lines",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	// A body with a fence cannot close the block it is shown in.
	block := Block("http", "body: ```\n````x")
	if !strings.HasPrefix(block, "`````http\n") || !strings.HasSuffix(block, "\n`````\n") {
		t.Errorf("fence not longer than the content's: %q", block)
	}
	if got := Code("a`b|c"); got != "``a`b\\|c``" {
		t.Errorf("Code = %q", got)
	}
}
