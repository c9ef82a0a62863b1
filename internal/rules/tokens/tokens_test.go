package tokens

import (
	"net/http"
	"slices"
	"testing"

	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestExpect: the rule and codes of each placement of the tokens (5.1 to
// 5.6): an answer with another code breaks the rule named.
func TestExpect(t *testing.T) {
	for _, c := range []struct {
		name   string
		r      Request
		rule   string
		codes  []int
		hError bool
	}{
		{"no API token on a read", Request{API: Missing}, "AUTH-MISSING-TOKEN-400", []int{400}, false},
		{"no API token, the authentication token valid", Request{API: Missing, NeedsAuth: true}, "AUTH-MISSING-TOKEN-400", []int{400}, false},
		{"no token at all on a write", Request{API: Missing, Auth: Missing, NeedsAuth: true}, "AUTH-MISSING-TOKEN-400", []int{400, 401}, false},
		{"an empty API token", Request{API: Empty}, "AUTH-MISSING-TOKEN-400", []int{400, 401}, false},
		{"a wrong API token", Request{API: Wrong, NeedsAuth: true}, "AUTH-INVALID-TOKEN-401", []int{401}, false},
		{"a read with the API token", Request{}, "AUTH-READ-TOKEN-ONLY", []int{200}, false},
		{"a read of no page", Request{MissingPage: true}, "PAGE-GET-404", []int{404}, true},
		{"settings with both", Request{NeedsAuth: true, Settings: true}, "AUTH-PARAM-NAME", []int{200}, false},
		{"settings without authentication", Request{Auth: Missing, NeedsAuth: true, Settings: true}, "AUTH-SETTINGS-READ-NEEDS-AUTH", []int{401}, false},
		{"settings with a wrong authentication", Request{Auth: Wrong, NeedsAuth: true, Settings: true}, "AUTH-SETTINGS-READ-NEEDS-AUTH", []int{401}, false},
		{"an edit of no page with both", Request{NeedsAuth: true, MissingPage: true}, "PAGE-EDIT-404", []int{404}, true},
		{"a delete of no page with both", Request{NeedsAuth: true, MissingPage: true, Delete: true}, "PAGE-DELETE-404", []int{404}, true},
		{"a write without authentication", Request{Auth: Missing, NeedsAuth: true}, "AUTH-WRITE-NEEDS-AUTH", []int{401}, false},
		{"a write with a wrong authentication", Request{Auth: Wrong, NeedsAuth: true}, "AUTH-WRITE-INVALID-AUTH", []int{401}, false},
		{"a write to no page without authentication", Request{Auth: Missing, NeedsAuth: true, MissingPage: true}, "AUTH-WRITE-NEEDS-AUTH", []int{401, 404}, false},
		{"a write with both", Request{NeedsAuth: true}, "", nil, false},
	} {
		a := Expect(c.r)
		if a.Rule != c.rule || !slices.Equal(a.Codes, c.codes) || a.HandlerError != c.hError {
			t.Errorf("%s: %+v, want %s %v (handler error %t)", c.name, a, c.rule, c.codes, c.hError)
		}
	}
}

// TestMissingTokenMessage: AUTH-MISSING-TOKEN-400's refusal carries a
// message, a non-empty string, in any words.
func TestMissingTokenMessage(t *testing.T) {
	for body, ok := range map[string]bool{
		`{"message":"Missing API token."}`: true,
		`{"message":"Clé manquante."}`:     true,
		`{"message":""}`:                   false,
		`{"message":3}`:                    false,
		`{}`:                               false,
		`missing token`:                    false,
	} {
		ex := rt.Get(t, rt.Reply{Status: http.StatusBadRequest, Body: body})
		if j := MissingTokenMessage(ex); j.Holds() != ok {
			t.Errorf("%s: holds %t, want %t", body, j.Holds(), ok)
		}
	}
}
