package files

import (
	"context"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// TestListFilesUnreadListing: a listing that could not be read is not a
// listing of no page: FILES-LIST-SHAPE is not checked, with the listing's
// problem as the reason, and no page is created (the fixture is never
// asked: a nil one would panic).
func TestListFilesUnreadListing(t *testing.T) {
	l := listFiles(context.Background(), nil, pagelist.Listing{Problem: "GET /api/pages answered HTTP 500"})
	if !strings.HasPrefix(l.notChecked, "the listing of every page type could not be read: ") ||
		!strings.Contains(l.notChecked, "HTTP 500") || len(l.keys) != 0 {
		t.Errorf("listFiles on an unread listing: %+v", l)
	}
}
