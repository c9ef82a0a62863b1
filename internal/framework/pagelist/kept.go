package pagelist

import (
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// Kept are the page objects kept of a list answer, for a judge that must
// know which pages it could have seen.
type Kept struct {
	Pages []gjson.Result
	// Whole: every item of the answer was read (Unread says none was lost).
	Whole bool
	// Only, when not nil, are the keys a listing read for its own pages
	// kept (ListRequest's only): of any other key, nothing is known.
	Only []string
}

// KeptItems are the pages kept of ex: its data array, those of a stream
// folded into a listing, or the run's keys a stream was folded into (the
// sweep's). A stream folded otherwise kept none: not Whole.
func KeptItems(ex *client.Exchange, path string) Kept {
	if ex.Streamed == nil {
		return Kept{Pages: ex.Get(path).Array(), Whole: Unread(ex) == ""}
	}
	if keys, ok := ex.Folded().([]string); ok {
		// The run's keys alone (the sweep's fold): every page of the
		// run the answer lists, as objects that show their key only.
		out := Kept{Whole: Unread(ex) == ""}
		for _, k := range keys {
			out.Pages = append(out.Pages, gjson.Parse(`{"key":`+strconv.Quote(k)+`}`))
		}
		return out
	}
	v, ok := ex.Folded().(*foldedListing)
	if !ok {
		return Kept{}
	}
	out := Kept{Whole: Unread(ex) == "", Only: v.only}
	for _, p := range v.pages.All() {
		out.Pages = append(out.Pages, p)
	}
	return out
}

// Value is the pageFold's listing, naming the keys it kept.
func (f *keyedFold) Value() (any, int64) {
	v, n := f.pageFold.Value()
	if l, ok := v.(*foldedListing); ok {
		l.only = f.only
	}
	return v, n
}
