package redact

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

func TestRedactsEveryEncoding(t *testing.T) {
	secret := "s3cr3t+/&=\"tok"
	r := New(Secret{secret, "${CONFORMANCE_TOKEN}"}, Secret{"x", "${SHORT}"})
	inputs := []string{
		"plain " + secret,
		"query ?token=" + url.QueryEscape(secret),
		"path /" + url.PathEscape(secret),
		`json {"token":"s3cr3t+/&=\"tok"}`,
		"html s3cr3t+/&amp;=&#34;tok",
		"b64 " + base64.StdEncoding.EncodeToString([]byte(secret)),
	}
	for _, in := range inputs {
		out := r.String(in)
		if strings.Contains(out, "s3cr3t") || strings.Contains(out, "czNjcjN0") {
			t.Errorf("secret survived in %q -> %q", in, out)
		}
		if !strings.Contains(out, "${CONFORMANCE_TOKEN}") {
			t.Errorf("no placeholder in %q", out)
		}
	}
	if got := r.String("x marks"); got != "x marks" {
		t.Errorf("short secrets must be ignored, got %q", got)
	}
}

func TestWriterCatchesSecretsSplitAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := New(Secret{"abcdef0123456789", "<T>"}).Writer(&out)
	for _, chunk := range []string{"token=abcdef01", "23456789 done\nnext ", "line"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "token=<T> done\nnext line"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestNilRedactorIsIdentity(t *testing.T) {
	var r *Redactor
	if r.String("a") != "a" || string(r.Bytes([]byte("b"))) != "b" {
		t.Fatal("nil redactor changed input")
	}
}

// A secret cut anywhere between two writes, with no newline near it, is
// still replaced whole: no part of it may reach the output.
func TestWriterNeverPrintsPartOfASecret(t *testing.T) {
	secret := "abcdef0123456789"
	text := strings.Repeat("x", 40) + secret + strings.Repeat("y", 40)
	for cut := 0; cut <= len(text); cut++ {
		var out bytes.Buffer
		w := New(Secret{secret, "<T>"}).Writer(&out)
		for _, chunk := range []string{text[:cut], text[cut:]} {
			if _, err := w.Write([]byte(chunk)); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), secret[:4]) {
				t.Fatalf("cut at %d: part of the secret was written: %q", cut, out.String())
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := strings.Repeat("x", 40) + "<T>" + strings.Repeat("y", 40); out.String() != want {
			t.Fatalf("cut at %d: got %q want %q", cut, out.String(), want)
		}
	}
}

func TestWriterStreamsWhatCannotBeASecret(t *testing.T) {
	var out bytes.Buffer
	w := New(Secret{"abcdef0123456789", "<T>"}).Writer(&out)
	_, _ = w.Write([]byte("progress ..."))
	if out.String() != "progress ..." {
		t.Fatalf("held back %q, want nothing held", out.String())
	}
}

func TestFieldsRedactsInPlace(t *testing.T) {
	type inner struct{ Msg string }
	type status string
	type model struct {
		Name   string
		State  status
		Lines  []string
		Inner  *inner
		Items  []inner
		Byname map[string]string
		Fixed  [1]string
		Count  int
		hidden string
	}
	r := New(Secret{"to_k+en", "${T}"})
	m := &model{Name: "a to_k+en", State: "to_k+en", Lines: []string{"to_k+en"}, Inner: &inner{"to_k+en"},
		Items: []inner{{"x to_k+en"}}, Byname: map[string]string{"k": "to_k+en"}, Fixed: [1]string{"to_k+en"}, hidden: "to_k+en"}
	r.Fields(m)
	if m.Name != "a ${T}" || m.State != "${T}" || m.Lines[0] != "${T}" || m.Inner.Msg != "${T}" ||
		m.Items[0].Msg != "x ${T}" || m.Byname["k"] != "${T}" || m.Fixed[0] != "${T}" {
		t.Fatalf("not redacted: %+v %+v", m, *m.Inner)
	}
	if m.hidden != "to_k+en" {
		t.Fatal("an unexported field was changed")
	}
	var nilRedactor *Redactor
	nilRedactor.Fields(m)  // must not panic
	New().Fields(&model{}) // nil pointer fields: must not panic
}

// TestFinds checks that Finds sees a secret in every form String replaces,
// and nothing else.
func TestFinds(t *testing.T) {
	const secret = "s3cr+t/value=="
	r := New(Secret{Value: secret, Placeholder: "${X}"})
	for _, s := range encodings(secret) {
		if !r.Finds("before " + s + " after") {
			t.Errorf("Finds misses the form %q", s)
		}
		if r.Finds(r.String("before " + s + " after")) {
			t.Errorf("Finds still sees %q after String", s)
		}
	}
	if r.Finds("nothing secret here") || (*Redactor)(nil).Finds(secret) {
		t.Error("Finds reports a secret where there is none")
	}
}
