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
	// cells are the cells whose mutants are on (cellmutants.go).
	cells []coverage.ID
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
	path := r.URL.Path
	prefix := "/api"
	if s.mutated(APIUnderV1) {
		prefix = "/api/v1"
	}
	if path != prefix && !strings.HasPrefix(path, prefix+"/") {
		// Outside the API: a JSON 404 (the real host answers with its HTML
		// "page not found" page).
		return early(http.StatusNotFound, "Not found.")
	}
	if r.Method == http.MethodOptions && s.mutated(BenignNewerRelease) {
		// A CORS preflight, answered before any credential check.
		return response{code: http.StatusNoContent, allow: preflightMethods}
	}
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	if s.mutated(JSONBodyRejected) && (r.Method == http.MethodPost || r.Method == http.MethodPut) &&
		strings.HasPrefix(ct, "application/json") {
		return early(http.StatusBadRequest, msgMissingInputs)
	}
	if s.mutated(FormPutRejected) && r.Method == http.MethodPut &&
		strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		return early(http.StatusBadRequest, msgMissingInputs)
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
	if s.mutated(BodyTokensJSONOnly) && in.form {
		delete(in.vals, "token")
		delete(in.vals, "authentication")
	}
	if r.Method == http.MethodDelete && (s.mutated(DeleteJSONBodyIgnored) || s.mutated(DeleteIgnoresQueryTokens)) {
		q := r.URL.Query()
		for _, k := range []string{"token", "authentication"} {
			inQuery := q.Get(k) != ""
			if (inQuery && s.mutated(DeleteIgnoresQueryTokens)) || (!inQuery && s.mutated(DeleteJSONBodyIgnored)) {
				delete(in.vals, k)
			}
		}
	}

	// Token checks come before the endpoint is resolved, like the previous
	// release: an unknown endpoint without a token is "Missing API token.".
	tok := in.token("token")
	if tok == "" {
		if s.mutated(MissingToken401) {
			return early(http.StatusUnauthorized, msgMissingToken)
		}
		return early(http.StatusBadRequest, msgMissingToken)
	}
	if !equal(tok, s.opts.Token) && !s.mutated(InvalidTokenAccepted) {
		return early(http.StatusUnauthorized, msgInvalidToken)
	}
	author, authOK := s.authenticate(in, r.Method != http.MethodGet)
	if authOK && IsWrite(r.Method) && s.mutated(ForeignWriter) && s.authWrites.Add(1) == foreignWriteAt {
		s.foreignDelete()
	}

	rt := route{method: r.Method}
	rest := strings.TrimPrefix(strings.TrimPrefix(path, prefix), "/")
	rt.endpoint, rt.key, _ = strings.Cut(rest, "/")
	rawRest := r.URL.EscapedPath()
	if strings.HasPrefix(rawRest, prefix+"/") {
		_, rt.rawKey, _ = strings.Cut(rawRest[len(prefix)+1:], "/")
	}

	h, needsAuth := s.lookup(rt)
	if h == nil {
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
	if s.mutated(UserReadsNeedAuth) && rt.endpoint == "users" {
		needsAuth = true
	}
	return s.transact(r, rt, func(v *view) response {
		if s.mutated(Benign404BeforeAuth) && v.missingPageTarget(rt) {
			// The spec does not order the 401 and 404 checks of a write.
			return failure(http.StatusNotFound, "Page not found.")
		}
		if s.mutated(FileUploadWithoutAuth) && rt.endpoint == "files" && rt.method == http.MethodPost && v.pages[rt.key] != nil {
			needsAuth = false
		}
		if needsAuth && !authOK {
			v.exploreRefused(rt, in)
			if s.mutated(RefusedWriteApplies) && rt.method != http.MethodGet {
				h(v, r, rt, in, adminUser) // applied, then refused
			}
			return early(http.StatusUnauthorized, msgAccessDenied)
		}
		return h(v, r, rt, in, author)
	})
}

// handlerFunc answers a request on the state it reads.
type handlerFunc func(v *view, r *http.Request, rt route, in *input, author string) response

// lookup finds the handler of a route and whether it needs the
// authentication token; nil when the endpoint or method is unknown.
func (s *Server) lookup(rt route) (handlerFunc, bool) {
	hasKey := rt.key != ""
	m := rt.method
	switch rt.endpoint {
	case "pages":
		switch {
		case !hasKey && m == http.MethodGet:
			return (*view).listPagesH, false
		case !hasKey && m == http.MethodPost:
			return (*view).createPageH, !s.mutated(CreateWithoutAuth)
		case hasKey && m == http.MethodGet:
			return (*view).getPageH, false
		case hasKey && m == http.MethodPut:
			return (*view).editPageH, true
		case hasKey && m == http.MethodDelete:
			return (*view).deletePageH, !s.mutated(DeleteWithoutAuth)
		}
	case "tags", "categories":
		if m == http.MethodGet {
			if hasKey {
				return (*view).getTermH, false
			}
			return (*view).listTermsH, false
		}
	case "users":
		if m == http.MethodGet {
			if hasKey {
				return (*view).getUserH, false
			}
			return (*view).listUsersH, false
		}
	case "settings":
		switch {
		case !hasKey && m == http.MethodGet:
			return (*view).getSettingsH, !s.mutated(SettingsReadableWithoutAuth)
		case !hasKey && m == http.MethodPut:
			return (*view).editSettingsH, true
		}
	case "images":
		if !hasKey && m == http.MethodPost {
			return (*view).uploadImageH, true
		}
	case "files":
		switch {
		case hasKey && m == http.MethodGet:
			return (*view).listFilesH, false
		case hasKey && m == http.MethodPost:
			return (*view).uploadFileH, true
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
