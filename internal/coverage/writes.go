package coverage

import (
	"slices"
	"strings"
)

// The write × view table: for each kind of page write the run makes (a
// create with each field, an edit of each field, a rename, a tag taken
// off, a move to another category, a delete, an upload, each kind of
// refused write, a create whose slug is taken), each view that can show
// it, filled when a judge ran an assertion that could have failed on that
// view right after that kind of write. Which rule can see which write on
// which view is the table's: a write cell is filled only by a rule its
// cell names (Recorder.Mark), so a judge marks every view it judged for
// every kind of the write it followed, and the table keeps what counts.

// The views a write can change: the columns of the write section.
const (
	// ViewList: the page list under a type filter (4.1).
	ViewList Way = "list"
	// ViewSingle: GET /api/pages/{key} of the key the page has after the
	// write (the key a refused write addressed).
	ViewSingle Way = "single"
	// ViewOldKey: GET /api/pages/{key} of the key the page had before.
	ViewOldKey Way = "oldkey"
	// ViewTagList and ViewTag: GET /api/tags and GET /api/tags/{key}.
	ViewTagList Way = "taglist"
	ViewTag     Way = "tag"
	// ViewCatList and ViewCategory: GET /api/categories and GET
	// /api/categories/{key}.
	ViewCatList  Way = "catlist"
	ViewCategory Way = "category"
	// ViewFiles: GET /api/files/{key}.
	ViewFiles Way = "files"
)

// WriteViews are the columns of the write section, in order.
func WriteViews() []Way {
	return []Way{ViewList, ViewSingle, ViewOldKey, ViewTagList, ViewTag, ViewCatList, ViewCategory, ViewFiles}
}

// The kinds of write besides a create or an edit of one field: the rows
// of the write section.
const (
	// WriteRename: an edit that moved the page to another key (3.2).
	WriteRename = "rename"
	// WriteRemoveTag: an edit that took a tag off the page.
	WriteRemoveTag = "remove-tag"
	// WriteMoveCategory: an edit that moved the page from its category to
	// another.
	WriteMoveCategory = "move-category"
	// WriteDelete: DELETE /api/pages/{key} (4.5).
	WriteDelete = "delete"
	// WriteUpload: a file or an image uploaded for a page (4.12, 4.13).
	WriteUpload = "upload"
	// WriteRefused400: a create or an edit refused with 400 for a type
	// outside the five (a validation failure, 7).
	WriteRefused400 = "refused-400"
	// WriteRefused401: an edit, a delete, an upload or a create refused
	// with 401 for want of a valid authentication token (5.5).
	WriteRefused401 = "refused-401"
	// WriteRefused404: an edit or a delete of a key no page has (4.4, 4.5).
	WriteRefused404 = "refused-404"
	// WriteCollide: a create whose slug another page's key is (4.3).
	WriteCollide = "collide"
)

// CreateKind and EditKind are the rows of a create sending field and an
// edit sending it.
func CreateKind(field string) string { return "create-" + field }
func EditKind(field string) string   { return "edit-" + field }

// WriteCreateFields are the body fields of 4.3 that have a row of their
// own, as sent on create: those the page object shows (parent is left
// out: the run makes a child page only where it can remove it, and reads
// it on its own; the key it gives is create-slug's kind of fact).
func WriteCreateFields() []string {
	return []string{"title", "description", "content", "date", "coverImage", "tags", "category", "type", "slug"}
}

// WriteEditFields are the body fields of 4.4 that have a row of their own,
// as sent in an edit (slug is not listed for edit; a changed key is
// WriteRename's row).
func WriteEditFields() []string {
	return []string{"title", "description", "content", "date", "coverImage", "tags", "category", "type"}
}

// WriteKinds are the rows of the write section, in order.
func WriteKinds() []string {
	var out []string
	for _, f := range WriteCreateFields() {
		out = append(out, CreateKind(f))
	}
	for _, f := range WriteEditFields() {
		out = append(out, EditKind(f))
	}
	return append(out, WriteRename, WriteRemoveTag, WriteMoveCategory, WriteDelete, WriteUpload,
		WriteRefused400, WriteRefused401, WriteRefused404, WriteCollide)
}

// WriteCell is the cell of the write kind on view.
func WriteCell(kind string, view Way) ID { return CellID(writeSectionID, kind, view) }

const writeSectionID = "write"

// IsWriteCell reports whether id is a cell of the write section.
func IsWriteCell(id ID) bool { return strings.HasPrefix(string(id), writeSectionID+".") }

// ReadBackWriteCell is the write cell that a read back of cell (a body
// field sent on create or in an edit) fills when it reads the single page:
// write.create-<field>.single or write.edit-<field>.single; "" when the
// write section has no such row.
func ReadBackWriteCell(cell ID) ID {
	section, field, way := cell.Parts()
	if section != "body" {
		return ""
	}
	switch {
	case way == Create && slices.Contains(WriteCreateFields(), field):
		return WriteCell(CreateKind(field), ViewSingle)
	case way == Edit && slices.Contains(WriteEditFields(), field):
		return WriteCell(EditKind(field), ViewSingle)
	}
	return ""
}

// Why some write cells are untestable.
const (
	noMove      = "the write moves no page: it leaves no old key to read (3.2)"
	noFile      = "a page write uploads nothing: GET /api/files/{key} lists the files uploaded to the page (4.11), which no page field makes"
	keysOnly    = "GET /api/tags and GET /api/categories name a page by its key alone (2.2, 2.3): this field shows in neither list"
	noTagInCat  = "a category's list names the pages in it, not their tags (2.3)"
	noCatInTag  = "a tag's list names the pages that carry it, not their category (2.2)"
	deleteKey   = "a delete leaves no key but the page's own, which the single page column reads (3.3)"
	deleteFiles = "what GET /api/files/{key} answers for a deleted page's key is not shown (4.11 gives no 404)"
	renameFiles = "whether a page's uploads follow it to its new key is not shown (4.11 lists them by key; 3.2 says nothing of them)"
	uploadPage  = "what an upload does to the page is not shown (4.12, 4.13): only the page's file list must show it (4.11)"
	refusedKey  = "a refused write moves no page: the key it addressed is the single page column's"
	refused400  = "the writes refused for their type send a type, a description, a slug and a date, no tag, category or title: " +
		"had one been carried out, the term lists (which name pages by key) would show nothing of it; the page object in " +
		"the single tag and category views would (tag, category)"
	refused401Terms = "the writes refused for the authentication token address a page the run made without tag or category " +
		"(and create one without): no tag or category view shows it (2.2, 2.3)"
	refused404Terms = "a write to a key no page has sends no tag or category: a page it wrongly stored would show in no tag or " +
		"category view (2.2, 2.3)"
	refused404Files = "a write to a key no page has uploads nothing; what GET /api/files/{key} answers for a key no page has " +
		"is not shown (4.11)"
	collideTerms = "the create whose slug is taken sends no tag or category, and the page it collides with is a draft, whose " +
		"place in the tag and category views is open (TAG-LIST-COMPLETE's Reading)"
)

// Rules of the write cells.
const (
	viewsAgree   = "PAGE-VIEWS-AGREE"
	typeFilters  = "PAGE-LIST-TYPE-FILTERS"
	tagComplete  = "TAG-LIST-COMPLETE"
	catComplete  = "CAT-LIST-COMPLETE"
	tagDropped   = "TAG-LIST-CONSISTENT"
	catDropped   = "CAT-LIST-CONSISTENT"
	deleteGone   = "PAGE-DELETE-GONE"
	keyChange    = "PAGE-EDIT-KEY-CHANGE"
	pageRefused  = "PAGE-REFUSED-WRITE-NO-EFFECT"
	authRefused  = "AUTH-REFUSED-WRITE-NO-EFFECT"
	keepsOthers  = "PAGE-CREATE-KEEPS-OTHERS"
	uploadsShown = "FILES-IMAGE-LISTED FILES-UPLOAD-ROUNDTRIP"
)

// writeSection: the write × view table.
func writeSection() Section {
	s := Section{ID: writeSectionID, Title: "Writes × views: each kind of page write, each view read right after it",
		RowHeading: "write", Ways: WriteViews()}
	body := bodySection()
	bodyRules := func(field string, way Way) string {
		for _, r := range body.Rows {
			if r.Field == field {
				return strings.Join(r.Cells[way].Rules, " ")
			}
		}
		return ""
	}
	for _, f := range WriteCreateFields() {
		s.Rows = append(s.Rows, fieldRow(CreateKind(f), f, bodyRules(f, Create)))
	}
	for _, f := range WriteEditFields() {
		s.Rows = append(s.Rows, fieldRow(EditKind(f), f, bodyRules(f, Edit)))
	}
	s.Rows = append(s.Rows, writeRows()...)
	return s
}

// fieldRow is the row of a create or an edit sending field, whose read
// back on the single page the rules readBack judge.
func fieldRow(kind, field, readBack string) Row {
	cells := map[Way]Cell{
		ViewList:     rules(viewsAgree),
		ViewSingle:   rules(readBack + " " + viewsAgree),
		ViewOldKey:   untestable(noMove),
		ViewTagList:  untestable(keysOnly),
		ViewTag:      rules(viewsAgree),
		ViewCatList:  untestable(keysOnly),
		ViewCategory: rules(viewsAgree),
		ViewFiles:    untestable(noFile),
	}
	switch field {
	case "tags":
		cells[ViewTagList], cells[ViewTag] = rules(tagComplete), rules(tagComplete+" "+viewsAgree)
		cells[ViewCatList] = untestable(noTagInCat)
	case "category":
		cells[ViewCatList], cells[ViewCategory] = rules(catComplete), rules(catComplete+" "+viewsAgree)
		cells[ViewTagList] = untestable(noCatInTag)
	case "type", "slug":
		// Where a page is listed: its type (4.1; published pages in the
		// term views, 2.2, 2.3), its key.
		cells[ViewList] = rules(typeFilters + " " + viewsAgree)
		cells[ViewTagList], cells[ViewTag] = rules(tagComplete), rules(tagComplete+" "+viewsAgree)
		cells[ViewCatList], cells[ViewCategory] = rules(catComplete), rules(catComplete+" "+viewsAgree)
	}
	return Row{Field: kind, Cells: cells}
}

// writeRows are the rows of the writes that are not one field sent.
func writeRows() []Row {
	none := func(cells map[Way]Cell, why string) map[Way]Cell {
		for _, w := range WriteViews() {
			if _, ok := cells[w]; !ok {
				cells[w] = untestable(why)
			}
		}
		return cells
	}
	return []Row{
		{Field: WriteRename, Cells: map[Way]Cell{
			ViewList: rules(typeFilters + " " + viewsAgree), ViewSingle: rules(keyChange + " " + viewsAgree), ViewOldKey: rules(keyChange),
			ViewTagList: rules(tagDropped), ViewTag: rules(tagDropped + " " + viewsAgree),
			ViewCatList: rules(catDropped), ViewCategory: rules(catDropped + " " + viewsAgree), ViewFiles: untestable(renameFiles)}},
		{Field: WriteRemoveTag, Cells: map[Way]Cell{
			ViewList: rules(viewsAgree), ViewSingle: rules(viewsAgree), ViewOldKey: untestable(noMove),
			ViewTagList: rules(tagDropped), ViewTag: rules(tagDropped + " " + viewsAgree),
			ViewCatList: untestable(noTagInCat), ViewCategory: rules(viewsAgree), ViewFiles: untestable(noFile)}},
		{Field: WriteMoveCategory, Cells: map[Way]Cell{
			ViewList: rules(viewsAgree), ViewSingle: rules(viewsAgree), ViewOldKey: untestable(noMove),
			ViewTagList: untestable(noCatInTag), ViewTag: rules(viewsAgree),
			ViewCatList: rules(catDropped), ViewCategory: rules(catDropped + " " + viewsAgree), ViewFiles: untestable(noFile)}},
		{Field: WriteDelete, Cells: map[Way]Cell{
			ViewList: rules(typeFilters + " " + deleteGone), ViewSingle: rules(deleteGone), ViewOldKey: untestable(deleteKey),
			ViewTagList: rules(tagDropped + " " + deleteGone), ViewTag: rules(tagDropped + " " + deleteGone),
			ViewCatList: rules(catDropped + " " + deleteGone), ViewCategory: rules(catDropped + " " + deleteGone),
			ViewFiles: untestable(deleteFiles)}},
		{Field: WriteUpload, Cells: none(map[Way]Cell{ViewFiles: rules(uploadsShown)}, uploadPage)},
		{Field: WriteRefused400, Cells: map[Way]Cell{
			ViewList: rules(viewsAgree), ViewSingle: rules(pageRefused + " " + viewsAgree), ViewOldKey: untestable(refusedKey),
			ViewTagList: untestable(refused400), ViewTag: rules(viewsAgree),
			ViewCatList: untestable(refused400), ViewCategory: rules(viewsAgree), ViewFiles: untestable(noFile)}},
		{Field: WriteRefused401, Cells: none(map[Way]Cell{
			ViewList: rules(authRefused), ViewSingle: rules(authRefused), ViewOldKey: untestable(refusedKey),
			ViewFiles: rules(authRefused)}, refused401Terms)},
		{Field: WriteRefused404, Cells: none(map[Way]Cell{
			ViewList: rules(pageRefused), ViewSingle: rules(pageRefused), ViewOldKey: untestable(refusedKey),
			ViewFiles: untestable(refused404Files)}, refused404Terms)},
		{Field: WriteCollide, Cells: none(map[Way]Cell{
			ViewList: rules(keepsOthers), ViewSingle: rules(keepsOthers), ViewOldKey: untestable(noMove),
			ViewFiles: untestable(noFile)}, collideTerms)},
	}
}
