package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxBody limits every request body.
const maxBody = 10 << 20

// errBadInput is the early "Missing method inputs." failure: a body that
// cannot be read (invalid JSON, a JSON array, a bad form or multipart body,
// or a body over the size limit).
var errBadInput = errors.New("missing method inputs")

// upload is a file part of a multipart body.
type upload struct {
	name string
	data []byte
}

// input holds the parameters of one request. A value is a string (query,
// form, multipart) or a decoded JSON value (string, json.Number, bool, nil,
// []any, map[string]any).
type input struct {
	vals  map[string]any
	files map[string]*upload
	form  bool // values came from a form-encoded or multipart body
}

// readInput collects the parameters from where the method carries them:
// GET, DELETE and other methods read the query string, and a JSON body fills
// in what the query lacks; POST and PUT read the body only (JSON, form or
// multipart), like the previous release.
func readInput(r *http.Request, w http.ResponseWriter) (*input, error) {
	in := &input{vals: map[string]any{}, files: map[string]*upload{}}
	src := r.Body
	if src == nil {
		src = http.NoBody
	}
	body := http.MaxBytesReader(w, src, maxBody)
	defer body.Close()
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch r.Method {
	case http.MethodPost, http.MethodPut:
		return in, in.readBody(body, ct, params)
	default:
		// Keep what parsed, like PHP does with a malformed query.
		q, _ := url.ParseQuery(r.URL.RawQuery)
		for k, vs := range q {
			if len(vs) > 0 {
				in.vals[k] = vs[0]
			}
		}
		fromQuery := in.vals
		in.vals = map[string]any{}
		if err := in.readBody(body, ct, params); err != nil {
			return nil, err
		}
		for k, v := range fromQuery {
			in.vals[k] = v
		}
		// Tokens of these methods travel in the query: not a form body.
		in.form = false
		return in, nil
	}
}

func (in *input) readBody(body io.Reader, ct string, params map[string]string) error {
	switch ct {
	case "multipart/form-data":
		in.form = true
		return in.readMultipart(body, params["boundary"])
	case "application/x-www-form-urlencoded":
		in.form = true
		b, err := io.ReadAll(body)
		if err != nil {
			return errBadInput
		}
		vs, err := url.ParseQuery(string(b))
		if err != nil {
			return errBadInput
		}
		for k, v := range vs {
			if len(v) > 0 {
				in.vals[k] = v[0]
			}
		}
		return nil
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return errBadInput
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return errBadInput
	}
	if dec.More() {
		return errBadInput
	}
	for k, v := range m {
		in.vals[k] = v
	}
	return nil
}

func (in *input) readMultipart(body io.Reader, boundary string) error {
	if boundary == "" {
		return errBadInput
	}
	mr := multipart.NewReader(body, boundary)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errBadInput
		}
		name := p.FormName()
		data, err := io.ReadAll(p)
		if err != nil {
			return errBadInput
		}
		if name == "" {
			continue
		}
		if fn := p.FileName(); fn != "" {
			if _, dup := in.files[name]; !dup {
				in.files[name] = &upload{name: fn, data: data}
			}
			continue
		}
		if _, dup := in.vals[name]; !dup {
			in.vals[name] = string(data)
		}
	}
}

// has reports whether the parameter is present (a JSON null counts as absent).
func (in *input) has(name string) bool {
	v, ok := in.vals[name]
	return ok && v != nil
}

// str returns a parameter as a string. ok is false when it is absent;
// valid is false when it is present but not a scalar (an array or object).
func (in *input) str(name string) (s string, ok, valid bool) {
	v, ok := in.vals[name]
	if !ok || v == nil {
		return "", false, true
	}
	switch x := v.(type) {
	case string:
		return x, true, true
	case json.Number:
		return x.String(), true, true
	case bool:
		return strconv.FormatBool(x), true, true
	}
	return "", true, false
}

// token returns a string parameter, "" when it is absent or not a string.
func (in *input) token(name string) string {
	v, _ := in.vals[name].(string)
	return v
}

// flag reads a boolean list filter: only the exact string "true" and the
// JSON value true count as true.
func (in *input) flag(name string, def bool) bool {
	v, ok := in.vals[name]
	if !ok || v == nil {
		return def
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x == "true"
	}
	return false
}

// integer reads an integer parameter. ok is false when it is absent or not
// a number; a decimal value is truncated ("2.5" gives 2), like the previous
// release.
func (in *input) integer(name string) (n int, ok bool) {
	s, present, valid := in.str(name)
	if !present || !valid {
		return 0, false
	}
	s = strings.TrimSpace(s)
	if i, err := strconv.Atoi(s); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f || f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int(f), true
}
