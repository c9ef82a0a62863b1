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
