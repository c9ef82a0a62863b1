package reference

import "net/http"

// The foreign-writer hazard (ForeignWriter): the site has another writer
// during a run, an editor who deletes a page.

// ForeignWriterPage is the seeded page the foreign writer deletes: a
// published page without files, child pages, tags or category, so that
// its absence from the listings is all that changes, and one that no
// read of the suite needs once the writes have begun.
const ForeignWriterPage = "lambda-post"

// foreignWriteAt is the write request, counted among those that carry a
// valid authentication token, before which the foreign writer acts.
const foreignWriteAt = 5

// foreignDelete deletes ForeignWriterPage as an editor would, with a
// request of its own: in files it reads the indexes, deletes, and
// rewrites them like any write.
func (s *Server) foreignDelete() {
	rt := route{endpoint: "pages", key: ForeignWriterPage, method: http.MethodDelete}
	s.transact(nil, rt, func(v *view) response {
		if p := v.pages[ForeignWriterPage]; p != nil {
			v.removePage(p)
			v.reindexTags(nil)
		}
		return success(http.StatusOK, "Page deleted.")
	})
}
