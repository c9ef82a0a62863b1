package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
)

// encodeBody builds the body of r with tokens (the tokens that go in the
// body, as parameter name and value) among its fields. It returns the body,
// its media type and the tokens it holds: a raw body is sent as given,
// without them.
func encodeBody(r Request, tokens [][2]string) (body []byte, contentType string, held [][2]string, err error) {
	switch {
	case len(r.Files) > 0:
		body, contentType, err = multipartBody(r, tokens)
		return body, contentType, tokens, err
	case r.Form != nil:
		form := url.Values{}
		for k, vs := range r.Form {
			form[k] = append([]string(nil), vs...)
		}
		for _, t := range tokens {
			form.Set(t[0], t[1])
		}
		return []byte(form.Encode()), "application/x-www-form-urlencoded", tokens, nil
	case r.Raw != nil:
		return r.Raw, r.RawContentType, nil, nil
	case r.JSON != nil || len(tokens) > 0 || r.Method == http.MethodPost || r.Method == http.MethodPut:
		obj := map[string]any{}
		for k, v := range r.JSON {
			obj[k] = v
		}
		for _, t := range tokens {
			obj[t[0]] = t[1]
		}
		b, err := JSONText(obj)
		if err != nil {
			return nil, "", nil, fmt.Errorf("encoding JSON body: %w", err)
		}
		return b, "application/json", tokens, nil
	}
	return nil, "", nil, nil
}

// JSONText is v as the client sends a JSON body: & < > as they are, not
// as \u0026 and the like (the same JSON to a server, and a curl line
// people can read), without a trailing newline.
func JSONText(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// multipartBody builds a multipart/form-data body: the tokens and Form
// fields as text parts, then the files.
func multipartBody(r Request, tokens [][2]string) ([]byte, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, t := range tokens {
		_ = mw.WriteField(t[0], t[1])
	}
	for _, k := range slices.Sorted(maps.Keys(r.Form)) {
		for _, v := range r.Form[k] {
			_ = mw.WriteField(k, v)
		}
	}
	for _, f := range r.Files {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.Field, f.Name))
		if f.MIMEType != "" {
			h.Set("Content-Type", f.MIMEType)
		}
		pw, err := mw.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		_, _ = pw.Write(f.Content)
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), mw.FormDataContentType(), nil
}
