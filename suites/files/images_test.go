package files

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// testPage is an upload page as the reference server makes it.
var testPage = &uploadPage{key: "conformance-run-uploads", uuid: "a3a9f34bfff51a526c03c4be5544c833", cover: "conformance-run-image.png"}

// The image is sent only when the page's cover image, named by its file
// name, is served from a folder named by the page (its uuid or its key).
func TestImageFolderUnknown(t *testing.T) {
	for _, c := range []struct {
		cover string // the JSON of data.coverImage
		sent  bool
	}{
		{`"http://h/bl-content/uploads/pages/a3a9f34bfff51a526c03c4be5544c833/conformance-run-image.png"`, true},
		{`"https://h/media/conformance-run-uploads/conformance-run-image.png?v=2"`, true},
		{`"http://h/bl-content/uploads/conformance-run-image.png"`, false}, // site-wide: the host with imageRestrict off
		{`"http://h/bl-content/uploads/pages/a3a9f34bfff51a526c03c4be5544c833x/c.png"`, false},
		{`false`, false},
		{`"conformance-run-image.png"`, false},
	} {
		why := imageFolderUnknown(testPage, gjson.Parse(c.cover))
		if (why == "") != c.sent {
			t.Errorf("cover %s: %q", c.cover, why)
		}
	}
	noUUID := *testPage
	noUUID.uuid = ""
	if why := imageFolderUnknown(&noUUID, gjson.Parse(`"http://h/bl-content/uploads/pages/conformance-run-uploads/x.png"`)); !strings.Contains(why, "no uuid") {
		t.Errorf("a page without uuid: %q", why)
	}
}

// The answer to the upload ties the image to the page when a URL or path in
// it has the page's uuid or key as a segment; the names it gives are the
// last segments of its strings.
func TestImageAnswer(t *testing.T) {
	host := gjson.Parse(`{"status":"0","message":"Image uploaded.",
		"image":"http://h/bl-content/uploads/pages/a3a9f34bfff51a526c03c4be5544c833/conformance-run-image_0.png",
		"thumbnail":"http://h/bl-content/uploads/pages/a3a9f34bfff51a526c03c4be5544c833/thumbnails/conformance-run-image_0.png"}`)
	if !tiedToPage(host, testPage) {
		t.Error("the host's answer is not tied to the page")
	}
	if names := answeredNames(host); len(names) != 3 || names[1] != "conformance-run-image_0.png" {
		t.Errorf("names %q", names)
	}
	for _, body := range []string{`{"status":"0","message":"Image uploaded."}`,
		`{"image":"http://h/bl-content/uploads/conformance-run-image.png"}`, `not JSON`} {
		if tiedToPage(gjson.Parse(body), testPage) {
			t.Errorf("%s is tied to the page", body)
		}
	}
}

// The record of the image: named as sent, as answered or derived from the
// sent name, else of an image type; never an attachment of another name.
func TestTheImage(t *testing.T) {
	const sent = "conformance-run-image.png"
	for _, c := range []struct {
		records  string // a JSON array of records
		answered []string
		want     string // the filename found, "" for none
	}{
		{`[{"filename":"conformance-run-image.png","mime":"image/png"}]`, nil, "conformance-run-image.png"},
		{`[{"filename":"conformance-run-image_0.png","mime":"image/png"}]`, nil, "conformance-run-image_0.png"},
		{`[{"filename":"Conformance_Run_Image-300x200.WEBP","mime":"application/octet-stream"}]`, nil, "Conformance_Run_Image-300x200.WEBP"},
		{`[{"file":"/srv/up/conformance-run-image.png"}]`, nil, "conformance-run-image.png"},
		{`[{"filename":"a1b2c3","mime":"application/octet-stream"}]`, []string{"a1b2c3"}, "a1b2c3"},
		{`[{"filename":"a1b2c3.webp","mime":"image/webp"}]`, nil, "a1b2c3.webp"},
		{`[{"filename":"x.txt","mime":"text/plain"},{"filename":"conformance-run-image.png","mime":"image/png"}]`, nil, "conformance-run-image.png"},
		{`[{"filename":"x.txt","mime":"text/plain"}]`, nil, ""},
		{`[{"filename":"conformance-run-image.txt","mime":"text/plain"}]`, nil, ""},
	} {
		rec, ok := theImage(gjson.Parse(c.records).Array(), sent, c.answered)
		if got := recordName(rec); ok != (c.want != "") || ok && got != c.want {
			t.Errorf("%s: found %v %q, want %q", c.records, ok, got, c.want)
		}
	}
}
