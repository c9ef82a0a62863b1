package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// imageExts are the extensions an image may have.
// host: ALLOWED_IMG_EXTENSION in bl-kernel/boot/variables.php
var imageExts = map[string]bool{"png": true, "jpg": true, "jpeg": true, "gif": true, "webp": true, "svg": true}

// fileExts are the extensions a page's file may have.
// host: ALLOWED_FILE_EXTENSIONS in bl-kernel/boot/variables.php
var fileExts = map[string]bool{
	"gif": true, "png": true, "jpg": true, "jpeg": true, "webp": true, "pdf": true, "txt": true,
	"doc": true, "docx": true, "xls": true, "xlsx": true, "ppt": true, "pptx": true, "zip": true,
	"tar": true, "gz": true, "mp3": true, "mp4": true, "wav": true, "ogg": true, "json": true, "md": true,
}

var mimeTypes = map[string]string{
	"txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
	"xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
	"doc": "application/msword", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"ppt": "application/vnd.ms-powerpoint", "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	"odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
	"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
	"svg": "image/svg+xml", "tar": "application/x-tar", "wav": "audio/x-wav", "mp3": "audio/mpeg", "mp4": "video/mp4", "ogg": "audio/ogg", "webm": "video/webm",
}

// extension returns the lowercase extension of a file name, "" when none.
// A dotfile (".hidden.txt") has no acceptable extension.
func extension(name string) string {
	if strings.HasPrefix(name, ".") {
		return ""
	}
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return ""
	}
	return strings.ToLower(name[i+1:])
}

func (s *view) pageByUUID(uuid string) *page {
	for _, p := range s.pages {
		if p.uuid == uuid {
			return p
		}
	}
	return nil
}

// storeName picks a free name in dir: name, then stem_0.ext, stem_1.ext...
// host: Filesystem::nextFilename in bl-kernel/helpers/filesystem.class.php
func storeName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	stem, ext := name, ""
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem, ext = name[:i], name[i:]
	}
	for i := 0; ; i++ {
		n := stem + "_" + strconv.Itoa(i) + ext
		if !taken(n) {
			return n
		}
	}
}

// uploadBase is the name of an uploaded file without the folders a client
// may put before it, as PHP gives it ($_FILES name).
func uploadBase(name string) string {
	return path.Base(strings.ReplaceAll(name, "\\", "/"))
}

func (s *view) pageFileTaken(uuid string) func(string) bool {
	return func(n string) bool {
		for _, f := range s.files[uuid] {
			if f.filename == n {
				return true
			}
		}
		return false
	}
}

// FilesListNoImages: GET /api/files/{key} lists a page's attachments only,
// as if its images belonged to a media library of their own.
var FilesListNoImages = declare(breaks("files-list-no-images", "FILES-IMAGE-LISTED",
	"GET /api/files/{key} leaves out the page's images (files of an image MIME type): it lists attachments only."))

// FilesListHidesCover: GET /api/files/{key} leaves out the file that is the
// page's cover image, as if the cover were no file of the page's but shown
// apart from them.
var FilesListHidesCover = declare(breaks("files-list-hides-cover", "FILES-IMAGE-LISTED",
	"GET /api/files/{key} leaves out the page's cover image (a cover named by its file name), the page's other files listed."))

// listFilesH answers GET /api/files/{key} (spec 4.11): the page's files,
// newest upload first. A page that does not exist has no files (200, empty
// list), like the previous release.
func (s *view) listFilesH(_ *http.Request, rt route, _ *input, _ string) response {
	if !validKey(rt) && !s.mutated(TraversalAllowed) && !s.exploreFilesKey(rt) {
		return s.invalidFilesKey()
	}
	var recs []*fileRec
	if p := s.pages[rt.key]; p != nil {
		recs = append(recs, s.files[p.uuid]...)
		sort.Slice(recs, func(i, j int) bool { return recs[i].seq > recs[j].seq })
		if s.mutated(FilesUnsorted) {
			sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
		}
		data := make([]any, 0, len(recs))
		dir := serverRoot + pageUploads(p.uuid)
		for _, f := range recs {
			if s.unlisted(p, f) {
				continue
			}
			thumb := ""
			if f.thumb {
				thumb = dir + "thumbnails/" + f.filename
			}
			var size any = f.size
			if s.mutated(BenignSizeInKiB) {
				size = (f.size + 1023) / 1024 // KiB, rounded up: the spec states no unit
			}
			if s.mutated(FileSizeAsString) || (s.mutated(UploadRecordSizeString) && f.seq > s.seedSeq) {
				size = fmt.Sprint(size)
			}
			var thumbnail any = thumb
			if thumb == "" && s.mutated(FileThumbnailFalse) {
				thumbnail = false
			}
			data = append(data, obj{
				{"file", dir + f.filename},
				{"filename", f.filename},
				{"mime", f.mime},
				{"size", size},
				{"thumbnail", thumbnail},
			})
		}
		return success(http.StatusOK, "Files for the page key: "+rt.key, kv{"data", data})
	}
	if s.mutated(BenignFilesMissingPage404) {
		return failure(http.StatusNotFound, "Page not found.")
	}
	return success(http.StatusOK, "Files for the page key: "+rt.key, kv{"data", []any{}})
}

// unlisted reports whether a mutant keeps f out of p's file list.
func (s *view) unlisted(p *page, f *fileRec) bool {
	if s.mutated(FilesListNoImages) && strings.HasPrefix(f.mime, "image/") {
		return true
	}
	return s.mutated(FilesListHidesCover) && !isURL(p.coverImage) && f.filename == p.coverImage
}

// invalidFilesKey answers a files key holding .. or NUL.
func (s *Server) invalidFilesKey() response {
	if s.mutated(BenignTraversalEarlyBody) {
		return early(http.StatusBadRequest, "Invalid page key.")
	}
	return failure(http.StatusBadRequest, "Invalid page key.")
}

// refuseUpload answers an upload refused for its extension.
func (s *Server) refuseUpload(msg string) response {
	if s.mutated(UploadRefused200) {
		return failure(http.StatusOK, msg)
	}
	return failure(http.StatusBadRequest, msg)
}

// uploadFileH answers POST /api/files/{key}: multipart with the file part
// "file", stored under the host's name for it (see below); a page that
// does not exist is 404 with the host's message.
func (s *view) uploadFileH(r *http.Request, rt route, in *input, _ string) response {
	if !validKey(rt) && !s.mutated(TraversalAllowed) {
		return s.invalidFilesKey()
	}
	p := s.pages[rt.key]
	if p == nil {
		// host: pluginAPI::uploadFile in bl-plugins/api/plugin.php
		return failure(http.StatusNotFound, "Error moving the file to the final path.")
	}
	up := in.files["file"]
	if up == nil {
		return failure(http.StatusBadRequest, "File not sent.")
	}
	ext := extension(uploadBase(up.name))
	if !fileExts[ext] && !s.mutated(BenignAnyUploadExtension) {
		return s.refuseUpload("File type not allowed.")
	}
	// The whole name, extension included, with each run of ASCII
	// punctuation and spaces made one '-' (case kept, nothing trimmed),
	// then the extension again: "test.txt" is "test-txt.txt". A name the
	// page already has is overwritten (its thumbnail, if any, stays).
	// host: pluginAPI::uploadFile in bl-plugins/api/plugin.php
	name := removeSpecialCharacters(uploadBase(up.name), "-") + "." + ext
	thumb := false
	s.files[p.uuid] = slices.DeleteFunc(s.files[p.uuid], func(f *fileRec) bool {
		thumb = thumb || f.filename == name && f.thumb
		return f.filename == name
	})
	if !s.mutated(UploadNotListed) {
		s.files[p.uuid] = append(s.files[p.uuid], &fileRec{
			filename: name, mime: mimeOf(ext), size: int64(len(up.data)), thumb: thumb, seq: s.nextUploadSeq(),
		})
	}
	rel := pageUploads(p.uuid) + name
	return success(http.StatusOK, "File uploaded.",
		kv{"filename", name},
		kv{"absolutePath", serverRoot + rel},
		kv{"absoluteURL", baseURL(r) + rel},
	)
}

func mimeOf(ext string) string {
	if m, ok := mimeTypes[ext]; ok {
		return m
	}
	return "application/octet-stream"
}

// ImageFolderNotLinked: POST /api/images with a page's uuid stores the
// image in the page's uuid folder, while GET /api/files/{key} reads the
// folder named by the key: the host when its key folder is not the link to
// the uuid folder that Pages::add makes (a filesystem without symlinks).
// host: pluginAPI::uploadImage and pluginAPI::getFiles in
// bl-plugins/api/plugin.php, Pages::add in bl-kernel/pages.class.php
var ImageFolderNotLinked = declare(breaks("image-folder-not-linked", "FILES-IMAGE-LISTED",
	"POST /api/images with a page's uuid answers the image's URL in the page's folder, but GET /api/files/{key} never lists it "+
		"(the uuid folder is not the one the key's list reads); files uploaded by key are listed."))

// uploadImageH answers POST /api/images: multipart with the file part
// "image" and an optional page "uuid". Without uuid the image is stored
// site-wide; with the uuid of a page it joins that page's files (with a
// thumbnail). A name already used gets _0, _1... like the previous release.
func (s *view) uploadImageH(r *http.Request, _ route, in *input, _ string) response {
	up := in.files["image"]
	if up == nil {
		return failure(http.StatusBadRequest, "No image sent.")
	}
	uuid, _, valid := in.str("uuid")
	uuid = strings.TrimSpace(uuid)
	if !valid || !safeUUID(uuid) {
		return failure(http.StatusBadRequest, "Invalid UUID.")
	}
	ext := extension(uploadBase(up.name))
	if !imageExts[ext] && !s.mutated(BenignAnyUploadExtension) {
		return s.refuseUpload("Image extension not allowed.")
	}
	name, ext := s.imageName(up, ext)
	dir := "/bl-content/uploads/"
	var target *page
	if uuid != "" {
		dir = pageUploads(uuid)
		target = s.pageByUUID(uuid)
	}
	taken := func(n string) bool { return s.images[dir+n] }
	if target != nil {
		pageTaken := s.pageFileTaken(target.uuid)
		taken = func(n string) bool { return s.images[dir+n] || pageTaken(n) }
	}
	name = storeName(name, taken)
	s.images[dir+name] = true
	if target != nil && !s.mutated(ImageFolderNotLinked) {
		s.files[target.uuid] = append(s.files[target.uuid], &fileRec{
			filename: name, mime: mimeOf(ext), size: int64(len(up.data)), thumb: true, seq: s.nextUploadSeq(),
		})
	}
	if s.mutated(BenignImageConverted) {
		return success(http.StatusOK, "Image uploaded.")
	}
	url := baseURL(r)
	return success(http.StatusOK, "Image uploaded.",
		kv{"image", url + dir + name},
		kv{"thumbnail", url + dir + "thumbnails/" + name},
	)
}

// BenignImageConverted: an image server that converts what it is sent and
// names the result itself, saying nothing of either in its answer.
var BenignImageConverted = declare(allows("benign-image-converted",
	"POST /api/images stores an image converted to WebP (image/webp) under a name of its own, img- and a hash of its "+
		"bytes, and answers only status and message (4.12 shows no response shape)."))

// imageName is the name an uploaded image is stored under, before a
// collision is resolved, and its extension: the name sent, with each run
// of ASCII punctuation and spaces in its stem made one '-' (case kept,
// nothing trimmed): "tiny.png" stays "tiny.png", "My Photo.png" becomes
// "My-Photo.png".
// host: transformImage in bl-kernel/functions.php
func (s *view) imageName(up *upload, ext string) (string, string) {
	if s.mutated(BenignImageConverted) {
		sum := sha256.Sum256(up.data)
		return "img-" + hex.EncodeToString(sum[:6]) + ".webp", "webp"
	}
	base := uploadBase(up.name)
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return removeSpecialCharacters(base, "-") + "." + ext, ext
}

// safeUUID accepts "" or letters, digits, '-' and '_'.
func safeUUID(u string) bool {
	for _, r := range u {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return len(u) <= 128
}

// pageUploads is the folder, under the site root, of a page's uploads.
func pageUploads(uuid string) string { return "/bl-content/uploads/pages/" + uuid + "/" }
