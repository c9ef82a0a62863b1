package spec

// filesRules: spec sections 2.5, 4.11, 4.12 and 4.13 (file listing and uploads).
var filesRules = []Rule{
	{ID: "FILES-LIST-SHAPE", Section: "2.5, 4.11", Level: Must, Area: AreaFiles, Endpoints: []Endpoint{ListFiles},
		Text: "GET /api/files/{key} answers 200 with data, an array of file records (file, filename, mime, thumbnail strings; size an integer).",
		Reading: "Checked on the file lists of up to 4 pages of the every-type listing, those with a cover image first (its " +
			"file is likely among the page's uploads), keys without / (the spec does not say which page parent/child " +
			"names here); when none has files, only empty lists could be checked, and the rule is reported not checked."},
	{ID: "FILES-NEWEST-FIRST", Section: "4.11", Level: Must, Area: AreaFiles, Writes: true, Endpoints: []Endpoint{ListFiles, UploadFile},
		Text: "Files are listed most recent first.",
		Reading: "Records carry no date, so order is checked on two files the run uploads one after the other, 1.1 s apart " +
			"(file dates may have one-second resolution)."},
	{ID: "FILES-TRAVERSAL-400", Section: "4.11, 7", Level: Must, Area: AreaFiles, Endpoints: []Endpoint{ListFiles},
		Text: "A files key containing .. or a null byte answers 400.",
		Reading: "The body shape of this 400 is not tied to a handler or an early error by the spec: both shapes are accepted. " +
			"Keys checked: a..b (.. anywhere, no slash, so that nothing normalises the path first) and x%00y (a NUL, percent-encoded). " +
			"An encoded ../ (..%2F) is not sent: it adds no condition of the spec, and web servers in front of the API may refuse it themselves."},
	{ID: "FILES-UPLOAD-ROUNDTRIP", Section: "4.11, 4.13", Level: Must, Area: AreaFiles, Writes: true, Endpoints: []Endpoint{UploadFile, ListFiles},
		Text: "A file uploaded to a page is listed by GET /api/files/{key} with its MIME type.",
		Reading: "Upload fields are not shown: the de-facto multipart part name file is used. The stored file name may be " +
			"transformed by the server, so the new record is found by comparing listings before and after. mime must be " +
			"text/plain, parameters such as charset allowed. size is an integer (FILES-LIST-SHAPE), but 2.5 says its unit " +
			"is not stated (bytes only assumed), so a size other than the bytes sent is recorded as an observation, not " +
			"failed. A target that refuses the .txt upload leaves the rule not checked (the allowed types are not shown). Of " +
			"what was sent, only the type is compared with what the listing shows: the part is declared text/plain and " +
			"holds plain ASCII text, so a server that keeps the declared type and one that detects it agree. A filename " +
			"other than the name sent is recorded as an observation (4.13 shows no request fields, and servers rewrite " +
			"names)."},
	{ID: "FILES-IMAGE-LISTED", Section: "4.11, 4.12, 4.3, 2.5", Level: Must, Area: AreaFiles, Writes: true, Endpoints: []Endpoint{UploadImage, ListFiles},
		Text: "An image uploaded for a page is listed by GET /api/files/{key} of that page.",
		Reading: "4.11 lists the files \"(images, attachments)\" uploaded to a page, but 4.12 shows no request fields: how an " +
			"image is tied to a page is not stated. The run's upload page is created with, as its cover image (4.3: a " +
			"filename), the name of the image the run then uploads, so that the check covers a page whose cover is an " +
			"uploaded image; the image is sent only when the create answer gives the page's uuid and a coverImage URL in a " +
			"folder named by the page (its uuid or key a path segment), so that the server keeps the page's images with the " +
			"page and deleting the page removes it. Otherwise nothing is sent (an image stored site-wide cannot be removed " +
			"through the API) and the rule is not checked. The image, a real PNG, goes to POST /api/images as the part " +
			"image with the de-facto field uuid, the page's uuid; a refusal (400, or status \"1\") leaves the rule not " +
			"checked, another answer than 200 or 201 fails (as for the file uploads). The page's file list read next must " +
			"hold a record it did not hold just before that is the image: its filename (or the last segment of file) is the " +
			"name sent, the name the upload's answer gives (the last segment of a URL or path in it), or a name derived " +
			"from the sent one (the same stem, case and punctuation aside, then anything, with an image extension: a number " +
			"added on a collision, a size, another format), or, under a name of the server's own, a record of an image " +
			"MIME type. A list that gains no record fails when the upload's answer ties the image to the page (a URL or " +
			"path in it has the page's uuid or key as a segment), and is not checked when nothing does; a list that gains " +
			"records none of which is the image is not checked (the spec does not say how stored files are named)."},
	{ID: "FILES-UPLOAD-REFUSED-400", Section: "7", Level: Must, Area: AreaFiles, Writes: true, Endpoints: []Endpoint{UploadFile, UploadImage},
		Text: "An upload refused for its file extension answers 400 with a handler-error body.",
		Reading: "What is \"invalid\" is not shown, so a server may accept the probes (a .php file to POST /api/files/{key}, " +
			"a .txt file as the image part of POST /api/images): an accepted probe is recorded and its case is not checked " +
			"(no refusal to judge), never failed; a refusal with another status, or answered 2xx with status \"1\", fails. The .php probe carries plain text, nothing executable; the .txt image " +
			"probe carries a real PNG image declared image/png, so that its extension is the only thing a server could refuse."},
	{ID: "FILES-UPLOAD-SHAPES", Section: "4.12, 4.13", Level: Must, Area: AreaFiles,
		Text:        "Request fields and response shapes of POST /api/images and POST /api/files/{key}.",
		NotTestable: "not shown in the spec"},
	{ID: "FILES-UPLOAD-LIMITS", Section: "8", Level: Must, Area: AreaFiles,
		Text:        "Upload size limits.",
		NotTestable: "not shown in the spec"},
}
