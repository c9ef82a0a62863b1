package pagelist

// Requests of the page list and of term views read as streams, for a suite
// that sends them in a batch of its own (client.DoAll) beside other reads:
// the same requests ReadLists and ReadStreamed send, and how to
// tell an answer that was not read whole.

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
)

// Reader.ListRequest is GET /api/pages with query q read as a stream, as
// Reader.ReadLists reads it: each page object kept brief (key, type, tags),
// unchecked. With only, the listing keeps the pages of those keys alone,
// whole, and no other (a suite that looks for its own pages in a listing,
// and compares their every field with their other views: a big site's
// other pages cost it nothing). PageItems gives the pages kept; the body
// is the envelope with data empty.
func (r *Reader) ListRequest(q url.Values, only ...string) client.Request {
	v := r.pageView("brief pages", nil, briefMembers, nil)
	st := streamPagesAt("data", v)
	if len(only) > 0 {
		keys := slices.Clone(only)
		st.Name = v.name + "; only, whole: " + strings.Join(keys, ", ")
		st.New = func() client.Fold { return &keyedFold{pageFold: newPageFold(v), only: keys} }
	}
	return client.Request{Method: http.MethodGet, Path: PagesPath, Query: q, Stream: st}
}

// keyedFold is a page fold that keeps the pages of some keys, whole, and
// no other. It reads no more than maxListed pages, as a fold that keeps
// them all: a listing longer than that is not judged either way.
type keyedFold struct {
	*pageFold
	only []string
	seen int
}

func (f *keyedFold) Item(raw []byte) {
	if f.seen++; f.seen > maxListed {
		f.over = true
		return
	}
	if key := gjson.GetBytes(raw, "key"); key.Type == gjson.String && slices.Contains(f.only, key.Str) {
		page := gjson.Parse(string(raw)) // a copy: raw is valid during the call only
		f.size += int64(len(page.Raw)) + 64
		f.pages = append(f.pages, page)
	}
}

// Reader.StreamedRequest is GET path read as Reader.ReadStreamed reads it: the
// array of page objects at arrayPath goes through the run's page checks
// and is kept slim, the content of the pages DigestContentOf names as a
// digest (PageItems gives those pages); the body is the rest of the answer
// with that array empty.
func (r *Reader) StreamedRequest(path, arrayPath string) client.Request {
	v := r.pageView("slim pages", r.checks.get(), slimMembers, nil)
	if r.contentOf != nil {
		v = r.pageView("slim pages", r.checks.get(), slimMembers, digestMembers)
		v.digestIf = r.contentOf
	}
	return client.Request{Method: http.MethodGet, Path: path, Stream: streamPagesAt(arrayPath, v)}
}

// Unread says why the body of ex was not read whole, so that nothing in
// it can be judged: the run's read limit (--max-body) cut it, a stream
// kept no more pages, or the connection closed before all of it arrived.
// It is "" when the body came whole (or no answer came: Err says why).
func Unread(ex *client.Exchange) string {
	switch {
	case ex == nil:
		return ""
	case ex.Streamed != nil && ex.Streamed.Full:
		return fmt.Sprintf("%s lists more than %d pages, more than this run keeps to compare with", ex.RequestLine(), maxListed)
	case ex.Truncated || ex.BodyCut:
		return match.LostBody(ex)
	}
	return ""
}
