package fronts_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fronts"
)

// probe is one raw request and who must answer it behind each front, as
// shared/observations/web-server-fronts.md records for real deployments.
type probe struct {
	name    string
	method  string
	target  string // the request target, sent byte for byte
	header  string // extra header lines, each ending in \r\n
	body    string
	answers map[fronts.Kind]int // the front's own status; absent: the API answers
}

const bigHeaderSize = 9000 // over both servers' 8 KB header limit

func probes(token string) []probe {
	q := "?token=" + token
	long := strings.Repeat("a", bigHeaderSize)
	upload := strings.Repeat("x", 1<<20+1024) // just over nginx's 1m default
	// Over nginx's in-memory body buffer, so it goes through the front's
	// temporary directory (writable by its workers, also under root).
	midUpload := strings.Repeat("x", 512<<10)
	return []probe{
		{name: "NUL byte in the path", method: "GET", target: "/api/files/x%00y" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 400, fronts.Apache: 404}},
		{name: "NUL byte in the query", method: "GET", target: "/api/pages" + q + "&x=%00"},
		{name: "encoded slash in the path", method: "GET", target: "/api/files/a%2Fb" + q,
			answers: map[fronts.Kind]int{fronts.Apache: 404}},
		{name: "dots inside a key", method: "GET", target: "/api/files/a..b" + q},
		{name: "dots climbing above the root", method: "GET", target: "/api/../../../etc/passwd" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 400, fronts.Apache: 400}},
		{name: "invalid escape", method: "GET", target: "/api/files/%zz" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 400, fronts.Apache: 400}},
		{name: "request line over 8 KB", method: "GET", target: "/api/pages" + q + "&x=" + long,
			answers: map[fronts.Kind]int{fronts.Nginx: 414, fronts.Apache: 414}},
		{name: "header over 8 KB", method: "GET", target: "/api/pages" + q, header: "X-Big: " + long + "\r\n",
			answers: map[fronts.Kind]int{fronts.Nginx: 400, fronts.Apache: 400}},
		{name: "upload over 1 MB", method: "POST", target: "/api/pages", body: upload,
			header:  "Content-Type: application/octet-stream\r\n",
			answers: map[fronts.Kind]int{fronts.Nginx: 413}},
		{name: "upload of 512 KB", method: "POST", target: "/api/pages", body: midUpload,
			header: "Content-Type: application/octet-stream\r\n"},
		{name: "key ending in .png", method: "GET", target: "/api/pages/cover.png" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 404}},
		{name: "key ending in .css", method: "GET", target: "/api/files/site.css" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 404}},
		{name: "TRACE", method: "TRACE", target: "/api/pages" + q,
			answers: map[fronts.Kind]int{fronts.Nginx: 405, fronts.Apache: 405}},
		{name: "HEAD", method: "HEAD", target: "/api/pages" + q},
		{name: "OPTIONS", method: "OPTIONS", target: "/api/pages" + q},
		{name: "PATCH", method: "PATCH", target: "/api/pages/x" + q},
	}
}

// send writes one request as given (Go's client would refuse or re-encode
// most of these targets) and reads the answer.
func send(t *testing.T, base string, p probe) (*http.Response, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s", p.method, p.target,
		strings.TrimPrefix(base, "http://"), p.header)
	if p.body != "" {
		req += fmt.Sprintf("Content-Length: %d\r\n", len(p.body))
	}
	// The body may be refused unread (413): a failed write is no failure.
	go func() { _, _ = io.WriteString(conn, req+"\r\n"+p.body) }()
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: p.method})
	if err != nil {
		t.Fatalf("%s: reading the answer: %v", p.name, err)
	}
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// TestFrontsAnswerLikeRealDeployments sends each probe of the observations
// through each front and checks who answered: the front itself (its own
// status, HTML, no CORS header) or the API behind it (JSON with CORS).
func TestFrontsAnswerLikeRealDeployments(t *testing.T) {
	eachFront(t, func(t *testing.T, kind fronts.Kind, f *fronts.Front, token, _ string) {
		t.Logf("%s started in %s", kind, f.Startup.Round(time.Millisecond))
		var wantOwn []int
		for _, p := range probes(token) {
			if status, ok := p.answers[kind]; ok {
				wantOwn = append(wantOwn, status)
			}
			res, body := send(t, f.URL, p)
			cors := res.Header.Get("Access-Control-Allow-Origin")
			want, byFront := p.answers[kind]
			switch {
			case byFront && (res.StatusCode != want || cors != "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html")):
				t.Errorf("%s: %s must answer it itself with its HTML %d; got %d, Content-Type %q, CORS %q:\n%.300s",
					p.name, kind, want, res.StatusCode, res.Header.Get("Content-Type"), cors, body)
			case !byFront && cors != "*":
				t.Errorf("%s: the API must answer it through %s; got %d without its CORS header:\n%.300s",
					p.name, kind, res.StatusCode, body)
			}
		}
		own, err := f.OwnAnswers()
		if err != nil {
			t.Fatal(err)
		}
		var gotOwn []int
		for _, a := range own {
			gotOwn = append(gotOwn, a.Status)
		}
		slices.Sort(gotOwn) // threads may log out of order
		slices.Sort(wantOwn)
		if !slices.Equal(gotOwn, wantOwn) {
			t.Errorf("OwnAnswers gives the statuses %v, want those of the probes %s answers itself: %v", gotOwn, kind, wantOwn)
		}
		if t.Failed() {
			t.Log(f.Logs())
		}
	})
}

func TestStopEndsTheFront(t *testing.T) {
	for _, kind := range fronts.Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			f := fronts.Start(t, kind, "http://127.0.0.1:9")
			addr := strings.TrimPrefix(f.URL, "http://")
			if err := f.Stop(); err != nil {
				t.Fatal(err)
			}
			if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
				c.Close()
				t.Errorf("%s still accepts connections on %s after Stop", kind, addr)
			}
			if err := f.Stop(); err != nil {
				t.Errorf("a second Stop: %v", err)
			}
		})
	}
}
