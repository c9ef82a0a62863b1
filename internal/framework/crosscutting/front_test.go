package crosscutting

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
)

// The fronts' own pages, as nginx 1.22.1 and Apache 2.4 (Debian) answered
// them in front of the reference server (internal/fronts).
const (
	nginx400 = "<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n" +
		"<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
	nginx400Header = "<html>\r\n<head><title>400 Request Header Or Cookie Too Large</title></head>\r\n<body>\r\n" +
		"<center><h1>400 Bad Request</h1></center>\r\n<center>Request Header Or Cookie Too Large</center>\r\n" +
		"<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
	nginx404 = "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n" +
		"<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
	// server_tokens off: no version.
	nginx413Tokenless = "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n" +
		"<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	apache404 = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">\n<html><head>\n" +
		"<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n" +
		"<hr>\n<address>Apache/2.4.71 (Debian) Server at 127.0.0.1 Port 34175</address>\n</body></html>\n"
	// Apache up to 2.4.5x, ServerSignature Off.
	apache400Old = "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>400 Bad Request</title>\n" +
		"</head><body>\n<h1>Bad Request</h1>\n<p>Your browser sent a request that this server could not understand.<br />\n</p>\n" +
		"</body></html>\n"
	apache414 = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">\n<html><head>\n" +
		"<title>414 Request-URI Too Long</title>\n</head><body>\n<h1>Request-URI Too Long</h1>\n" +
		"<p>The requested URL's length exceeds the capacity\nlimit for this server.<br />\n</p>\n<hr>\n" +
		"<address>Apache/2.4.71 (Debian) Server at 127.0.0.1 Port 80</address>\n</body></html>\n"
	// A theme's page, as a site whose API is not reached answers.
	themeNotFound = "<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Page not found</h1></body></html>"
)

const (
	nginxServer  = "nginx/1.22.1"
	apacheServer = "Apache/2.4.71 (Debian)"
)

// canned is one response a server gives.
type canned struct {
	status int
	header map[string]string
	body   string
}

// exchangeOf records a GET of path answered with c, through the client,
// as a run records it.
func exchangeOf(t *testing.T, path string, c canned) *client.Exchange {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range c.header {
			w.Header().Set(k, v)
		}
		if _, ok := c.header["Content-Type"]; !ok {
			w.Header()["Content-Type"] = nil // no sniffing: absent means absent
		}
		w.WriteHeader(c.status)
		_, _ = w.Write([]byte(c.body))
	}))
	defer srv.Close()
	cl, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	return cl.Do(context.Background(), client.Request{Method: http.MethodGet, Path: path})
}

func htmlPage(server string) map[string]string {
	return map[string]string{"Content-Type": "text/html", "Server": server}
}

// apiHeaders are those of the reference server's answers.
func apiHeaders(server, contentType string) map[string]string {
	return map[string]string{"Content-Type": contentType, "Server": server, "Access-Control-Allow-Origin": "*",
		"Cache-Control": "no-store, no-cache, must-revalidate", "Pragma": "no-cache"}
}

func TestAnsweredByFront(t *testing.T) {
	cases := []struct {
		name       string
		path       string
		resp       canned
		apiJSON    bool // the API answered JSON elsewhere in the run
		wantServer string
	}{
		// The front's own answers.
		{"nginx 400 for a NUL byte in the path", "/api/files/x%00y", canned{400, htmlPage(nginxServer), nginx400}, true, "nginx"},
		{"nginx 400 for an over-long header", "/api/pages", canned{400, htmlPage(nginxServer), nginx400Header}, true, "nginx"},
		{"nginx 404 of its static-file location", "/api/pages/cover.png", canned{404, htmlPage(nginxServer), nginx404}, true, "nginx"},
		{"nginx 413 with server_tokens off", "/api/files/k", canned{413, htmlPage("nginx"), nginx413Tokenless}, true, "nginx"},
		{"nginx page behind a CDN that renames Server", "/api/files/x%00y", canned{400, htmlPage("cloudflare"), nginx400}, true, "nginx"},
		{"Apache 404 for a NUL byte in the path", "/api/files/x%00y", canned{404,
			map[string]string{"Content-Type": "text/html; charset=iso-8859-1", "Server": apacheServer}, apache404}, true, "Apache"},
		{"Apache 404 for an encoded slash", "/api/files/a%2Fb", canned{404, htmlPage(apacheServer), apache404}, true, "Apache"},
		{"Apache 2.4.5x 400 without signature", "/api/files/%25zz", canned{400, htmlPage("Apache"), apache400Old}, true, "Apache"},
		{"Apache 414", "/api/pages", canned{414, htmlPage(apacheServer), apache414}, true, "Apache"},
		{"413 custom page from nginx", "/api/files/k", canned{413, htmlPage(nginxServer), "<h1>Too big</h1>"}, true, "nginx"},
		{"405 empty body from Apache", "/api/pages", canned{405, map[string]string{"Server": apacheServer}, ""}, true, "Apache"},

		// The API's answers, right or wrong, even behind a front.
		{"the API's JSON 404 behind nginx", "/api/pages/none", canned{404, apiHeaders(nginxServer, "application/json"),
			`{"status":"1","message":"Page not found."}`}, true, ""},
		{"the API's JSON error with text/html (a bug the rules must judge)", "/api/pages/none",
			canned{404, apiHeaders(nginxServer, "text/html; charset=UTF-8"), `{"status":"1","message":"Page not found."}`}, true, ""},
		{"the API's JSON 413 without CORS behind nginx (a bug the rules must judge)", "/api/files/k",
			canned{413, map[string]string{"Content-Type": "application/json", "Server": nginxServer}, `{"status":"1","message":"Too large."}`}, true, ""},
		{"a theme's HTML 404 behind nginx: the site answers HTML", "/api/pages/none", canned{404, htmlPage(nginxServer), themeNotFound}, true, ""},
		{"a 400 page from nginx without its markup", "/api/files/a..b", canned{400, htmlPage(nginxServer), "<p>bad</p>"}, true, ""},
		{"nginx's page, but the API never answered JSON in this run", "/api/pages", canned{404, htmlPage(nginxServer), nginx404}, false, ""},
		{"nginx's page carrying the API's CORS header", "/api/pages", canned{404,
			map[string]string{"Content-Type": "text/html", "Server": nginxServer, "Access-Control-Allow-Origin": "*"}, nginx404}, true, ""},
		{"a page whose title's status is not the response's", "/api/pages", canned{404, htmlPage(nginxServer), nginx400}, true, ""},
		{"a status the fronts do not answer themselves", "/api/pages", canned{502, htmlPage(nginxServer),
			strings.ReplaceAll(nginx400, "400 Bad Request", "502 Bad Gateway")}, true, ""},
		{"413 from an unnamed server", "/api/files/k", canned{413, htmlPage("Caddy"), "too big"}, true, ""},
		{"a success", "/api/pages", canned{200, htmlPage(nginxServer), nginx400}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex := exchangeOf(t, c.path, c.resp)
			if ex.Err != nil {
				t.Fatal(ex.Err)
			}
			got := AnsweredByFront(ex, c.apiJSON)
			if got.Server != c.wantServer || got.ByFront() != (c.wantServer != "") {
				t.Fatalf("AnsweredByFront = %+v, want server %q", got, c.wantServer)
			}
			if got.ByFront() && !strings.Contains(got.Evidence, got.Server) {
				t.Errorf("the evidence %q does not name %s", got.Evidence, got.Server)
			}
		})
	}
}

func TestAnsweredByFrontWithoutAnswer(t *testing.T) {
	for _, ex := range []*client.Exchange{nil, {Method: "GET", Err: errors.New("connection refused")}, {Method: "GET"}} {
		if got := AnsweredByFront(ex, true); got.ByFront() {
			t.Errorf("AnsweredByFront(%+v) = %+v, want the API's (no answer at all)", ex, got)
		}
	}
}

func TestFrontObservation(t *testing.T) {
	ex := exchangeOf(t, "/api/files/x%00y", canned{404, htmlPage(apacheServer), apache404})
	a := AnsweredByFront(ex, true)
	got := a.Observation(ex, "FILES-TRAVERSAL-400")
	want := "GET /api/files/x%00y -> 404 was " + FrontPhrase + " (Apache's own HTML 404 page), not by the API; " +
		"not checked for this request: FILES-TRAVERSAL-400"
	if got != want {
		t.Errorf("Observation =\n  %q\nwant\n  %q", got, want)
	}
	if strings.Contains(got, "test-token") || strings.Contains(got, "token=") {
		t.Errorf("the observation shows the query string: %q", got)
	}
}
