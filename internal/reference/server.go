package reference

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
	"github.com/conformance-suite/conformance/internal/coverage"
)

// Server is the reference server. It is safe for concurrent use as a Go
// value; in the file mode (Options.StorageDir) what it stores is not, like
// the host's storage: requests side by side lose data (see transact).
type Server struct {
	// mu guards, in memory, everything a request reads or writes, for the
	// whole request; in files, only the uploads and the volatile counters,
	// while the handler runs (see transact).
	mu      sync.Mutex
	opts    Options
	now     func() time.Time
	mutants map[Mutant]bool
	users   []fixtures.User // no endpoint writes them
	// cells are the cells whose mutants are on (cellmutants.go), and
	// writeCells those of the write section among them (cellwrites.go).
	cells      []coverage.ID
	writeCells []writeCell
	// seedSeq and seedPages are the upload counter and the pages when the
	// server started (cellviews.go).
	seedSeq   int64
	seedPages map[string]*page

	mem  *indexes // the indexes in memory; nil in the file mode
	disk *disk    // the index files; nil in memory
	up   *uploads
	// workTime is the file mode's pause of a write between read and
	// rewrite (Options.StorageWorkTime).
	workTime time.Duration
	// afterRead, a test hook, runs when a request of the file mode has
	// read the indexes (and taken its work time), before it works on them.
	afterRead func(r *http.Request)
	// authWrites counts the write requests with a valid authentication
	// token, for the foreign-writer hazard.
	authWrites atomic.Int64
	// lastRead and settingsReads feed the volatile fields of
	// BenignVolatilePageField and BenignVolatileSettings.
	lastRead      time.Time
	settingsReads int64
	// memos are what the mutants that remember earlier requests keep
	// (memo), by mutant, under mu.
	memos map[Mutant]any
}

// serverRoot is the pretend install directory, used in the file paths that
// GET /api/files/{key} reports.
const serverRoot = "/var/www/content-api"

// defaultPageSize is the plugin's page-size setting (spec section 8).
const defaultPageSize = 15

// adminUser is the user that owns Options.AuthToken.
const adminUser = "admin"

// mutated reports whether the named mutant is enabled.
func (s *Server) mutated(m Mutant) bool { return s.mutants[m] }

// response is what a handler answers.
type response struct {
	code int
	kind kind
	body obj // nil: no body
	// raw, when not nil, replaces the JSON body (mutants that send non-JSON).
	raw []byte
	// authed is set when the request carried a valid admin authentication
	// token.
	authed bool
	// allow, when set, is the Allow header of a 405.
	allow string
}

type kind int

const (
	kindSuccess kind = iota
	kindHandlerError
	kindEarlyError
)

func success(code int, msg string, extra ...kv) response {
	body := obj{{"status", "0"}, {"message", msg}}
	return response{code: code, kind: kindSuccess, body: append(body, extra...)}
}

func failure(code int, msg string) response {
	return response{code: code, kind: kindHandlerError, body: obj{{"status", "1"}, {"message", msg}}}
}

func early(code int, msg string) response {
	return response{code: code, kind: kindEarlyError, body: obj{{"message", msg}}}
}

const (
	msgMissingInputs = "Missing method inputs."
	msgMissingToken  = "Missing API token."
	msgInvalidToken  = "Invalid API token."
	msgAccessDenied  = "Access denied or invalid endpoint."
)

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var resp response
	func() {
		defer func() {
			if v := recover(); v != nil {
				resp = failure(http.StatusInternalServerError, "Internal server error.")
			}
		}()
		resp = s.handle(w, r)
	}()
	if len(s.cells) > 0 {
		resp = s.breakOutput(r, resp)
	}
	s.write(w, r, resp)
}

// route is a request matched to an endpoint.
type route struct {
	endpoint string // "pages", "tags", ...
	key      string // decoded key after the endpoint, "" when none
	rawKey   string // the same, as sent (still percent-encoded)
	method   string
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) (resp response) {
	// authOK is whether the request carried a valid admin authentication
	// token; the response records it (see the nocache-only-with-auth mutant).
	authOK := false
	defer func() { resp.authed = authOK }()
	prefix := "/api"
	if s.mutated(APIUnderV1) {
		prefix = "/api/v1"
	}
	if refused, ok := s.refuseEarly(r, prefix); !ok {
		return refused
	}
	s.exploreInput(r)
	in, err := readInput(r, w)
	if err != nil {
		return early(http.StatusBadRequest, msgMissingInputs)
	}
	s.headerCredentials(r, in)
	if len(s.cells) > 0 {
		s.breakInput(r, in)
	}
	s.dropTokens(r, in)

	// Token checks come before the endpoint is resolved, like the previous
	// release: an unknown endpoint without a token is "Missing API token.".
	if refused, ok := s.checkToken(in); !ok {
		return refused
	}
	author, authOK := s.authenticate(in, r.Method != http.MethodGet)
	if authOK && IsWrite(r.Method) && s.mutated(ForeignWriter) && s.authWrites.Add(1) == foreignWriteAt {
		s.foreignDelete()
	}

	rt := routeOf(r, prefix)
	h, needsAuth := s.lookup(rt)
	if h == nil {
		return s.unknownEndpoint(rt)
	}
	c := matched{r: r, rt: rt, in: in, h: s.aroundHandler(rt, h), needsAuth: needsAuth, authOK: authOK, author: author}
	return s.transact(r, rt, s.withWriteCells(c))
}

// refuseEarly answers a request outside the API, a CORS preflight and the
// bodies a mutant refuses before reading them; ok when none of these.
func (s *Server) refuseEarly(r *http.Request, prefix string) (_ response, ok bool) {
	path := r.URL.Path
	if path != prefix && !strings.HasPrefix(path, prefix+"/") {
		// Outside the API: a JSON 404 (the real host answers with its HTML
		// "page not found" page).
		return early(http.StatusNotFound, "Not found."), false
	}
	if r.Method == http.MethodOptions && s.mutated(BenignNewerRelease) {
		// A CORS preflight, answered before any credential check.
		return response{code: http.StatusNoContent, allow: preflightMethods}, false
	}
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	if s.mutated(JSONBodyRejected) && (r.Method == http.MethodPost || r.Method == http.MethodPut) &&
		strings.HasPrefix(ct, "application/json") {
		return early(http.StatusBadRequest, msgMissingInputs), false
	}
	if s.mutated(FormPutRejected) && r.Method == http.MethodPut &&
		strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		return early(http.StatusBadRequest, msgMissingInputs), false
	}
	return response{}, true
}

// dropTokens applies the mutants that do not read the tokens where they
// travel: in a form, in the query of a DELETE, in its JSON body.
func (s *Server) dropTokens(r *http.Request, in *input) {
	if s.mutated(BodyTokensJSONOnly) && in.form {
		delete(in.vals, "token")
		delete(in.vals, "authentication")
	}
	if r.Method != http.MethodDelete || !(s.mutated(DeleteJSONBodyIgnored) || s.mutated(DeleteIgnoresQueryTokens)) {
		return
	}
	q := r.URL.Query()
	for _, k := range []string{"token", "authentication"} {
		inQuery := q.Get(k) != ""
		if (inQuery && s.mutated(DeleteIgnoresQueryTokens)) || (!inQuery && s.mutated(DeleteJSONBodyIgnored)) {
			delete(in.vals, k)
		}
	}
}

// checkToken checks the API token; ok when it is valid.
func (s *Server) checkToken(in *input) (_ response, ok bool) {
	tok := in.token("token")
	switch {
	case tok == "" && s.mutated(MissingToken401):
		return early(http.StatusUnauthorized, msgMissingToken), false
	case tok == "":
		return early(http.StatusBadRequest, msgMissingToken), false
	case !equal(tok, s.opts.Token) && !s.mutated(InvalidTokenAccepted):
		return early(http.StatusUnauthorized, msgInvalidToken), false
	}
	return response{}, true
}

// routeOf matches the path of r, under prefix, to an endpoint and a key.
func routeOf(r *http.Request, prefix string) route {
	rt := route{method: r.Method}
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, prefix), "/")
	rt.endpoint, rt.key, _ = strings.Cut(rest, "/")
	rawRest := r.URL.EscapedPath()
	if strings.HasPrefix(rawRest, prefix+"/") {
		_, rt.rawKey, _ = strings.Cut(rawRest[len(prefix)+1:], "/")
	}
	return rt
}

// unknownEndpoint answers a route the endpoint table lacks.
func (s *Server) unknownEndpoint(rt route) response {
	if s.mutated(UnknownEndpoint404) {
		return early(http.StatusNotFound, msgAccessDenied)
	}
	if allow := s.allowedMethods(rt); allow != "" && s.mutated(Benign405UnlistedMethod) {
		resp := failure(http.StatusMethodNotAllowed, "Method not allowed.")
		resp.allow = allow
		return resp
	}
	return early(http.StatusUnauthorized, msgAccessDenied)
}

// matched is a request matched to its handler, its tokens checked.
type matched struct {
	r         *http.Request
	rt        route
	in        *input
	h         handlerFunc
	needsAuth bool
	authOK    bool
	author    string
}

// on answers c on the state v: the handler's answer, or 401 when the
// handler needs the authentication token and the request has no valid one.
func (c matched) on(v *view) response {
	s, rt := v.Server, c.rt
	if s.mutated(Benign404BeforeAuth) && v.missingPageTarget(rt) {
		// The spec does not order the 401 and 404 checks of a write.
		return failure(http.StatusNotFound, "Page not found.")
	}
	if s.mutated(FileUploadWithoutAuth) && rt.endpoint == "files" && rt.method == http.MethodPost && v.pages[rt.key] != nil {
		c.needsAuth = false
	}
	if c.needsAuth && !c.authOK {
		v.exploreRefused(rt, c.in)
		if s.mutated(RefusedWriteApplies) && rt.method != http.MethodGet {
			c.h(v, c.r, rt, c.in, adminUser) // applied, then refused
		}
		return early(http.StatusUnauthorized, msgAccessDenied)
	}
	return c.h(v, c.r, rt, c.in, c.author)
}

// handlerFunc answers a request on the state it reads.
type handlerFunc func(v *view, r *http.Request, rt route, in *input, author string) response

// endpoint is a row of the endpoint table: the handler of a method on an
// endpoint, with a key after it or without (keyed), and whether it needs
// the authentication token; the mutant flip, when on, turns that around.
type endpoint struct {
	name   string
	keyed  bool
	method string
	h      handlerFunc
	auth   bool
	flip   Mutant
}

// endpoints is the endpoint table.
var endpoints = []endpoint{
	{"pages", false, http.MethodGet, (*view).listPagesH, false, ""},
	{"pages", false, http.MethodPost, (*view).createPageH, true, CreateWithoutAuth},
	{"pages", true, http.MethodGet, (*view).getPageH, false, ""},
	{"pages", true, http.MethodPut, (*view).editPageH, true, ""},
	{"pages", true, http.MethodDelete, (*view).deletePageH, true, DeleteWithoutAuth},
	{"tags", false, http.MethodGet, (*view).listTermsH, false, ""},
	{"tags", true, http.MethodGet, (*view).getTermH, false, ""},
	{"categories", false, http.MethodGet, (*view).listTermsH, false, ""},
	{"categories", true, http.MethodGet, (*view).getTermH, false, ""},
	{"users", false, http.MethodGet, (*view).listUsersH, false, UserReadsNeedAuth},
	{"users", true, http.MethodGet, (*view).getUserH, false, UserReadsNeedAuth},
	{"settings", false, http.MethodGet, (*view).getSettingsH, true, SettingsReadableWithoutAuth},
	{"settings", false, http.MethodPut, (*view).editSettingsH, true, ""},
	{"images", false, http.MethodPost, (*view).uploadImageH, true, ""},
	{"files", true, http.MethodGet, (*view).listFilesH, false, ""},
	{"files", true, http.MethodPost, (*view).uploadFileH, true, ""},
}

// lookup finds the handler of a route and whether it needs the
// authentication token; nil when the endpoint or method is unknown.
func (s *Server) lookup(rt route) (handlerFunc, bool) {
	for _, e := range endpoints {
		if e.name == rt.endpoint && e.keyed == (rt.key != "") && e.method == rt.method {
			return e.h, e.auth != (e.flip != "" && s.mutated(e.flip))
		}
	}
	return nil, false
}

// missingPageTarget reports whether rt is an edit, a delete or a file
// upload of a page key (free of traversal characters) that no page has.
func (s *view) missingPageTarget(rt route) bool {
	pageWrite := rt.endpoint == "pages" && (rt.method == http.MethodPut || rt.method == http.MethodDelete)
	fileUpload := rt.endpoint == "files" && rt.method == http.MethodPost
	return (pageWrite || fileUpload) && rt.key != "" && validKey(rt) && s.pages[rt.key] == nil
}

// allowedMethods lists the methods the endpoint table has for the path of
// rt ("GET, POST"), "" when it has none: the path is unknown.
func (s *Server) allowedMethods(rt route) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		rt.method = m
		if h, _ := s.lookup(rt); h != nil {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}

// authenticate checks the authentication token: it must belong to an
// administrator. It returns the administrator's username. write tells
// whether the request is not a GET.
func (s *Server) authenticate(in *input, write bool) (string, bool) {
	name := "authentication"
	if write && s.mutated(AuthParamRenamedOnWrites) {
		name = "auth"
	}
	a := in.token(name)
	if a == "" {
		return "", false
	}
	if equal(a, s.opts.AuthToken) || s.mutated(AnyAuthAccepted) {
		return adminUser, true
	}
	for _, u := range s.users {
		if u.Role == "admin" && u.TokenAuth != "" && equal(a, u.TokenAuth) {
			return u.Username, true
		}
	}
	return "", false
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// baseURL is {protocol}://{domain} of the request.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = "localhost"
	}
	return scheme + "://" + host
}
