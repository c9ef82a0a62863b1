package selftest_test

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"sync"
	"testing"
)

// customFieldsSent records the custom field names of every customFields
// value a run sends with PUT /api/settings (issue 13: the host keeps every
// field it is ever given with every page, for good).
type customFieldsSent struct {
	mu     sync.Mutex
	values []map[string]json.RawMessage // each value that is a JSON object
}

// record notes the customFields value of r, when r is a settings PUT
// carrying one (JSON or form body); the body is left readable.
func (c *customFieldsSent) record(r *http.Request) {
	if r.Method != http.MethodPut || r.URL.Path != "/api/settings" {
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var text string
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
		form, _ := url.ParseQuery(string(body))
		text = form.Get("customFields")
	} else {
		var fields struct {
			CustomFields string `json:"customFields"`
		}
		_ = json.Unmarshal(body, &fields)
		text = fields.CustomFields
	}
	var defs map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &defs) != nil || defs == nil {
		return // no value, or one that defines no field ({not json})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values = append(c.values, defs)
}

// check fails the test when a value sent named a field that site (the
// site's customFields before the run) does not have, and, with roundTrip,
// when no value other than the site's own was sent (the round trip of
// SETTINGS-GET-SHAPE did not run: the test would prove nothing).
func (c *customFieldsSent) check(t *testing.T, site string, roundTrip bool) {
	t.Helper()
	var have map[string]json.RawMessage
	if err := json.Unmarshal([]byte(html.UnescapeString(site)), &have); err != nil {
		t.Fatalf("the site's customFields %q is not a JSON object: %v", site, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	changed := false
	for _, sent := range c.values {
		for name := range sent {
			if _, ok := have[name]; !ok {
				t.Errorf("the run sent customFields naming %q, a field the site (%s) does not have: the host keeps it with every page for good", name, site)
			}
		}
		changed = changed || !maps.EqualFunc(sent, have, func(a, b json.RawMessage) bool { return bytes.Equal(compact(a), compact(b)) })
	}
	if roundTrip && !changed {
		t.Errorf("the run sent no customFields value of its own (%d sent in all): the round trip did not run, so the storage "+
			"comparison proves nothing about it", len(c.values))
	}
}

// compact is JSON without insignificant space, for comparing values.
func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// hasField reports whether a site's customFields (as read: JSON text,
// HTML-escaped on the previous release) defines any field.
func hasField(site string) bool {
	var have map[string]json.RawMessage
	return json.Unmarshal([]byte(html.UnescapeString(site)), &have) == nil && len(have) > 0
}
