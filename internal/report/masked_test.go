package report

import "testing"

func TestMaskedReplacesValues(t *testing.T) {
	cases := map[string]string{
		`data[3].tags is "a,b"`:          `data[].tags is "…"`,
		`data.12.title: got "x \"y\" z"`: `data[].title: got "…"`,
		`meta.total 15, want  2`:         `meta.total 15, want 2`,
		`version 1.2 of "unclosed`:       `version 1[] of "unclosed`, // .2 reads as a path index, as before
		`items[7] and [x] and .5th`:      `items[] and [x] and .5th`,
	}
	for in, want := range cases {
		if got := masked(in); got != want {
			t.Errorf("masked(%q) = %q, want %q", in, got, want)
		}
	}
}
