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
