package hostile

import (
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/testkit"
)

// Exit codes of the CLI (internal/runner).
const (
	exitPass     = 0
	exitFail     = 1
	exitUnusable = 3
)

// Time bounds. startup is what the CLI subprocess needs before its first
// request and after its last (a race-enabled test binary is slow to start);
// fullRun is a whole suite against the in-memory reference server.
const (
	startup = 5 * time.Second
	fullRun = 25 * time.Second
)

// Peak memory bounds (resident, whole process). A preflight-only run of
// the CLI takes about 20 to 33 MB (the binary grows with the suite) and a
// whole run against the reference about 32 MB; a 50 MB body may add a few
// --max-body (4 MiB) buffers, while a client that read it whole would take
// 50 MB more at least, so 40 MB still tells the two apart. A full run
// has up to --concurrency (8) requests in flight, each of which may hold
// up to --max-body while it is read, and the specs that judge an answer
// hold it until they do: the target answering garbage (ten 1 MB nesting
// bombs held at once, beside the 40 MB or so the binary itself takes)
// peaks at 56 to 61 MB on a 2-core machine running other tests beside it
// (up to 100 before a streamed read stopped keeping the start of an
// answer announced longer than --max-body); its 100 MB answer read whole
// would pass 140. The race detector's shadow
// memory multiplies everything (by 5 to 10, Go's documentation says; a
// full run's garbage the more, the faster it is made): the plain pass
// holds the bounds, the race pass only keeps a runaway out.
const (
	preflightPeak = 40 << 20
	fullRunPeak   = 80 << 20
	raceFactor    = 3.5
)

// listingPeak bounds a full run whose whole-site listings hold millions
// of small items: each listing is read as a stream and stops at the
// 100,000 pages a run keeps of one (a few hundred bytes each, in two
// listings), on top of a full run's own memory; a client that kept every
// item would pass a gigabyte.
const listingPeak = 160 << 20

// scenario is one hostile target and what the run against it must do.
type scenario struct {
	name string
	// target starts the hostile target and returns its base URL, extra CLI
	// flags, and checks to run on the finished run (may be nil).
	target func(t *testing.T, tok tokens) (base string, args []string, after func(t *testing.T, r cliRun))
	exit   int
	// verdict must match the one-sentence verdict, on the console and in
	// the JSON report.
	verdict string
	maxTook time.Duration
	// readOnly runs without the authentication token.
	readOnly bool
}

func simple(h http.Handler) func(*testing.T, tokens) (string, []string, func(*testing.T, cliRun)) {
	return func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
		return serve(t, h).URL, nil, nil
	}
}

// cannotCheck prefixes every preflight verdict.
const cannotCheck = `^The target cannot be checked: `

func scenarios() []scenario {
	return []scenario{
		// Unusable from the first request: preflight says why, exit 3.
		{
			name: "refuses connections",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				return testkit.RefusedURL(t), nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `Cannot reach http://127\.0\.0\.1:\d+: the connection was refused`, maxTook: startup,
		},
		{
			name: "accepts and never answers",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, done <-chan struct{}) { readHead(c); <-done })
				return base, []string{"--request-timeout", "1s"}, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*no answer within the request timeout \(1s, --request-timeout\) to GET /api/pages`, maxTook: startup + time.Second,
		},
		{
			name: "never answers and the global --timeout beats --request-timeout",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, done <-chan struct{}) { readHead(c); <-done })
				return base, []string{"--request-timeout", "5m", "--timeout", "2s"}, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*the run's time limit \(--timeout\) was reached before the target answered GET /api/pages`, maxTook: startup + 2*time.Second,
		},
		{
			name: "answers one byte per second (slowloris status line)",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, done <-chan struct{}) {
					if readHead(c) {
						trickle(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}", time.Second, done)
					}
				})
				return base, []string{"--request-timeout", "2s"}, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*no answer within the request timeout \(2s`, maxTook: startup + 2*time.Second,
		},
		{
			name: "answers one byte per second (slowloris body)",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, done <-chan struct{}) {
					if readHead(c) {
						_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"))
						trickle(c, `{"status":"0","message":"List of pages","data":[]}`, time.Second, done)
					}
				})
				return base, []string{"--request-timeout", "2s"}, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*the response body did not arrive in full within the request timeout \(2s`, maxTook: startup + 2*time.Second,
		},
		{
			name:   "answers HTML (API plugin deactivated)",
			target: simple(fixed(http.StatusNotFound, "text/html; charset=UTF-8", deactivatedPlugin)),
			exit:   exitUnusable, verdict: cannotCheck + `GET /api/pages answered 404 with an HTML page instead of JSON: the API plugin is probably not activated`, maxTook: startup,
		},
		{
			name:   "answers an empty body",
			target: simple(fixed(http.StatusOK, "application/json", "")),
			exit:   exitUnusable, verdict: cannotCheck + `GET /api/pages answered 200 with an empty body instead of JSON`, maxTook: startup,
		},
		{
			name:   "answers truncated JSON",
			target: simple(fixed(http.StatusOK, "application/json", `{"status":"0","message":"List of pages","numberOfItems":1,"data":[{"key":"alpha-post","title":"Al`)),
			exit:   exitUnusable, verdict: cannotCheck + `GET /api/pages answered 200 with JSON that stops in the middle \(truncated\)`, maxTook: startup,
		},
		{
			name: "closes the connection in the middle of the body",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, _ <-chan struct{}) {
					if readHead(c) {
						_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"status\":\"0\",\"data\":["))
					}
				})
				return base, nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*the connection closed before the whole response body arrived`, maxTook: startup,
		},
		{
			name:   "answers invalid UTF-8",
			target: simple(fixed(http.StatusOK, "application/json", "{\"status\":\"0\",\"message\":\"List of pages \xff\xfe\xfd\",\"data\":[]}")),
			exit:   exitUnusable, verdict: cannotCheck + `GET /api/pages answered 200 with a body that is not valid UTF-8`, maxTook: startup,
		},
		{
			name: "answers a 50 MB body",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				return serve(t, huge(50<<20)).URL, nil, func(t *testing.T, r cliRun) {
					checkMemory(t, r, preflightPeak)
				}
			},
			exit: exitUnusable, verdict: cannotCheck + `GET /api/pages answered a body larger than the read limit \(4194304 bytes, --max-body\)`, maxTook: startup,
		},
		{
			name:   "answers a JSON nesting bomb",
			target: simple(fixed(http.StatusOK, "application/json", nestingBomb)),
			exit:   exitUnusable, verdict: cannotCheck + `GET /api/pages answered 200 with JSON nested more than 1000 levels deep \(a nesting bomb\)`, maxTook: startup,
		},
		{
			name: "does not speak HTTP",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				base := tcpTarget(t, func(c net.Conn, _ <-chan struct{}) {
					if readHead(c) {
						_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n"))
					}
				})
				return base, nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `.*the answer is not valid HTTP`, maxTook: startup,
		},
		{
			name: "redirects in a loop on the same host",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				c := count(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, r.URL.Path+"?"+r.URL.RawQuery+"&again=1", http.StatusFound)
				}))
				return serve(t, c).URL, nil, func(t *testing.T, _ cliRun) {
					if n := c.n(); n != 4 {
						t.Errorf("the target got %d requests, want 4 (the first and 3 redirects)", n)
					}
				}
			},
			exit: exitUnusable, verdict: cannotCheck + `GET /api/pages answered a redirect \(302 to .*\) that was not followed \(redirected more than 3 times`, maxTook: startup,
		},
		{
			name: "redirects to another host",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				other := forbidden(t)
				return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					// Echo the query (tokens included) into Location, as careless sites do.
					http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusMovedPermanently)
				})).URL, nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `GET /api/pages answered a redirect \(301 to http://127\.0\.0\.1:\d+/api/pages\?.*\) that was not followed \(redirect to another host .* not followed: the tokens are never sent anywhere but --base-url\)`, maxTook: startup,
		},
		{
			name: "answers 429 with Retry-After to every request",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				c := count(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Retry-After", "1")
					fixed(http.StatusTooManyRequests, "application/json", `{"message":"Too many requests"}`)(w, nil)
				}))
				return serve(t, c).URL, nil, func(t *testing.T, r cliRun) {
					if n := c.get("GET /api/pages"); n != 3 {
						t.Errorf("GET /api/pages sent %d times, want 3 (1 + --retries 2)", n)
					}
					if r.Took < 2*time.Second {
						t.Errorf("took %s: the two Retry-After waits of 1s were not honoured", r.Took)
					}
					checkRetriesReported(t, r, 2)
				}
			},
			exit: exitUnusable, verdict: cannotCheck + `GET /api/pages answered 429 Too Many Requests even after 2 retries \(Retry-After "1"\): the target is rate-limiting or overloaded`, maxTook: startup + 2*time.Second,
		},
		{
			name: "answers 503 without Retry-After, --retries 1",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				return serve(t, fixed(http.StatusServiceUnavailable, "text/html", "<html>Service Unavailable</html>")).URL, []string{"--retries", "1"}, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `GET /api/pages answered 503 Service Unavailable even after 1 retry: the target is rate-limiting or overloaded`, maxTook: startup + time.Second,
		},
		{
			name: "presents a self-signed certificate",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				return serveTLS(t, referenceHandler(t, tok)).URL, nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `Cannot reach https://127\.0\.0\.1:\d+ over TLS: the certificate is not trusted \(.*\); pass --ca-cert FILE, or --insecure for a test site\.`, maxTook: startup,
		},
		{
			name: "wrong API token",
			target: func(t *testing.T, _ tokens) (string, []string, func(*testing.T, cliRun)) {
				other := newTokens()
				return serve(t, referenceHandler(t, other)).URL, nil, nil
			},
			exit: exitUnusable, verdict: cannotCheck + `The API token was refused`, maxTook: startup,
		},

		// Usable once the client copes: the run completes.
		{
			name: "self-signed certificate with --ca-cert",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				srv := serveTLS(t, referenceHandler(t, tok))
				ca := filepath.Join(t.TempDir(), "ca.pem")
				if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
					t.Fatal(err)
				}
				return srv.URL, []string{"--ca-cert", ca}, nil
			},
			exit: exitPass, verdict: `^PASS: `, maxTook: fullRun,
		},
		{
			name: "self-signed certificate with --insecure",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				return serveTLS(t, referenceHandler(t, tok)).URL, []string{"--insecure"}, nil
			},
			exit: exitPass, verdict: `^PASS: `, maxTook: fullRun,
		},
		{
			name: "same-host redirects (two hops) are followed",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				hops := atomic.Int64{}
				return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						switch {
						case strings.HasPrefix(r.URL.Path, "/api/"):
							hops.Add(1)
							http.Redirect(w, r, "/hop1"+r.URL.RequestURI(), http.StatusTemporaryRedirect)
						case strings.HasPrefix(r.URL.Path, "/hop1/"):
							http.Redirect(w, r, "/hop2"+strings.TrimPrefix(r.URL.RequestURI(), "/hop1"), http.StatusPermanentRedirect)
						default:
							r2 := r.Clone(r.Context())
							r2.URL.Path = strings.TrimPrefix(r.URL.Path, "/hop2")
							r2.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, "/hop2")
							ref.ServeHTTP(w, r2)
						}
					})).URL, nil, func(t *testing.T, r cliRun) {
						if r.Report != nil && int64(r.Report.Meta.Requests) != hops.Load() {
							t.Errorf("%d requests in the report, %d reached the target", r.Report.Meta.Requests, hops.Load())
						}
					}
			},
			exit: exitPass, verdict: `^PASS: `, maxTook: fullRun,
		},
		{
			name: "reads answered 429/503 now and then are retried, each retry reported",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				var mu sync.Mutex
				gets, refused, total := 0, 0, 0
				h := faultOn(ref, func(w http.ResponseWriter, r *http.Request) bool {
					mu.Lock()
					defer mu.Unlock()
					total++
					if r.Method != http.MethodGet {
						return false
					}
					gets++
					// The first request (preflight) waits a whole second;
					// then every 25th read is turned away once.
					if gets == 1 || gets%25 == 0 {
						refused++
						code, wait := http.StatusTooManyRequests, "0"
						if gets == 1 {
							code, wait = http.StatusServiceUnavailable, "1"
						}
						w.Header().Set("Retry-After", wait)
						fixed(code, "application/json", `{"message":"busy"}`)(w, r)
						return true
					}
					return false
				})
				return serve(t, h).URL, nil, func(t *testing.T, r cliRun) {
					mu.Lock()
					defer mu.Unlock()
					checkRetriesReported(t, r, refused)
					if r.Report != nil && r.Report.Meta.Requests+r.Report.Meta.Retries != total {
						t.Errorf("the target got %d requests; the report says %d requests and %d retries", total, r.Report.Meta.Requests, r.Report.Meta.Retries)
					}
				}
			},
			exit: exitPass, verdict: `^PASS: `, maxTook: fullRun,
		},
		{
			name: "writes answered 503 are never retried",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				var total, writes atomic.Int64
				h := faultOn(ref, func(w http.ResponseWriter, r *http.Request) bool {
					total.Add(1)
					if r.Method == http.MethodGet {
						return false
					}
					writes.Add(1)
					w.Header().Set("Retry-After", "0")
					fixed(http.StatusServiceUnavailable, "application/json", `{"status":"1","message":"Maintenance."}`)(w, r)
					return true
				})
				return serve(t, h).URL, nil, func(t *testing.T, r cliRun) {
					if writes.Load() == 0 {
						t.Error("the suite sent no write: the scenario checks nothing")
					}
					if r.Report != nil && int64(r.Report.Meta.Requests+r.Report.Meta.Retries) != total.Load() {
						t.Errorf("the target got %d requests; the report says %d requests and %d retries: a write was retried", total.Load(), r.Report.Meta.Requests, r.Report.Meta.Retries)
					}
					if r.Report != nil && r.Report.Meta.Retries != 0 {
						t.Errorf("%d retries, want none (only writes were refused)", r.Report.Meta.Retries)
					}
				}
			},
			exit: exitFail, verdict: `^FAIL: the target breaks \d+ rule\(s\) of the spec`, maxTook: fullRun,
		},
		{
			name: "--rps bounds the pace",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				var mu sync.Mutex
				var times []time.Time
				h := faultOn(ref, func(http.ResponseWriter, *http.Request) bool {
					mu.Lock()
					times = append(times, time.Now())
					mu.Unlock()
					return false
				})
				return serve(t, h).URL, []string{"--rps", "50", "--label-filter", "area:users"}, func(t *testing.T, r cliRun) {
					mu.Lock()
					defer mu.Unlock()
					if len(times) < 5 {
						t.Fatalf("only %d requests: the scenario checks nothing", len(times))
					}
					// Burst 1 at 50/s: any 11 consecutive requests leave the
					// client >= 200ms apart. They are timed here on arrival,
					// where a loaded machine can delay one request and not
					// the next, so 150ms is the bound: without the limiter 11
					// requests to the reference arrive within a few ms.
					for i := 10; i < len(times); i++ {
						if d := times[i].Sub(times[i-10]); d < 150*time.Millisecond {
							t.Errorf("11 requests within %s at --rps 50", d)
							break
						}
					}
				}
			},
			exit: exitPass, verdict: `^PASS: `, maxTook: fullRun,
		},

		// The target breaks in the middle of a run.
		{
			name: "goes down in the middle of the run",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				// Dies right after creating the run's first page, which
				// the run then cannot delete.
				d := &dying{ref: referenceHandler(t, tok), after: 0, deleted: map[string]bool{}}
				srv := httptest.NewUnstartedServer(d)
				srv.Config.ErrorLog = quietLog
				d.listener = srv.Listener
				srv.Start()
				t.Cleanup(srv.Close)
				return srv.URL, nil, func(t *testing.T, r cliRun) {
					d.mu.Lock()
					defer d.mu.Unlock()
					if !d.dead {
						t.Fatal("the target never died: the run created no page")
					}
					checkStoppedAfter(t, r, d.served)
					if left := checkCleanupReported(t, r, d.created, d.deleted); left == 0 {
						t.Error("no page was left on the dead target: the cleanup report is not exercised")
					}
				}
			},
			exit: exitUnusable, verdict: `^UNUSABLE: the target stopped answering after \d+ requests: the last \d+ got no answer \(the connection (was refused|closed without an answer)\)`, maxTook: fullRun,
		},
		{
			name: "stops answering mid-run and the global --timeout ends the run",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				srv := serveHanging(t, referenceHandler(t, tok), 20)
				return srv.URL, []string{"--request-timeout", "5m", "--timeout", "6s"}, func(t *testing.T, r cliRun) {
					checkStoppedAfter(t, r, 20)
				}
			},
			exit: exitUnusable, verdict: `^UNUSABLE: the target stopped answering after \d+ requests: the last \d+ got no answer \((the run was interrupted|the run's time limit \(--timeout\) was reached) before the target answered\)`, maxTook: startup + 6*time.Second,
		},
		{
			name: "answers slowly and the global --timeout ends the run",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				return serve(t, faultOn(ref, func(http.ResponseWriter, *http.Request) bool {
						time.Sleep(100 * time.Millisecond)
						return false
					})).URL, []string{"--timeout", "5s"}, func(t *testing.T, r cliRun) {
						if r.Report != nil && r.Report.Counts.Passed+r.Report.Counts.Failed == 0 {
							t.Error("the report says nothing was checked before the time limit")
						}
					}
			},
			exit: exitFail, verdict: `^INCOMPLETE: the run's time limit \(--timeout 5s\) was reached after \d+ requests: \d+ rule\(s\) passed`, maxTook: startup + 5*time.Second,
		},
		{
			name: "answers garbage on some endpoints",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				big := huge(100 << 20)
				h := faultOn(ref, func(w http.ResponseWriter, r *http.Request) bool {
					if r.Method != http.MethodGet {
						return false
					}
					switch p := r.URL.Path; {
					case strings.HasPrefix(p, "/api/users"):
						fixed(http.StatusOK, "application/json", nestingBomb)(w, r)
					case strings.HasPrefix(p, "/api/tags"):
						big(w, r)
					case strings.HasPrefix(p, "/api/categories"):
						fixed(http.StatusOK, "application/json", `{"status":"0","message":"List of categories.","data":[{"key":"gen`)(w, r)
					case strings.HasPrefix(p, "/api/files/"):
						fixed(http.StatusOK, "application/json", "{\"status\":\"0\",\"message\":\"\xff\xfe\",\"data\":[]}")(w, r)
					case strings.HasPrefix(p, "/api/pages/") && !strings.Contains(p, "conformance-"):
						fixed(http.StatusNotFound, "text/html", deactivatedPlugin)(w, r)
					default:
						return false
					}
					return true
				})
				return serve(t, h).URL, nil, func(t *testing.T, r cliRun) {
					checkMemory(t, r, fullRunPeak)
				}
			},
			exit: exitFail, verdict: `^FAIL: the target breaks \d+ rule\(s\) of the spec`, maxTook: fullRun,
		},
		{
			// The listings the suite reads as a stream (numberOfItems=-1)
			// answer 50 MB of small items: read whole within their bounds,
			// each item bounded, a bounded number of pages kept.
			name: "answers 50 MB to every whole listing",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				big := huge(50 << 20)
				h := faultOn(ref, func(w http.ResponseWriter, r *http.Request) bool {
					if r.Method != http.MethodGet || r.URL.Path != "/api/pages" || r.URL.Query().Get("numberOfItems") != "-1" {
						return false
					}
					big(w, r)
					return true
				})
				return serve(t, h).URL, nil, func(t *testing.T, r cliRun) {
					checkMemory(t, r, listingPeak)
				}
			},
			exit: exitFail, verdict: `^FAIL: the target breaks \d+ rule\(s\) of the spec`, maxTook: fullRun,
		},
		{
			name: "redirects one endpoint to another host in the middle of the run",
			target: func(t *testing.T, tok tokens) (string, []string, func(*testing.T, cliRun)) {
				ref := referenceHandler(t, tok)
				other := forbidden(t)
				h := faultOn(ref, func(w http.ResponseWriter, r *http.Request) bool {
					if !strings.HasPrefix(r.URL.Path, "/api/users") {
						return false
					}
					http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusFound)
					return true
				})
				return serve(t, h).URL, nil, func(t *testing.T, r cliRun) {
					b, _ := os.ReadFile(filepath.Join(r.Dir, "report.json"))
					if !strings.Contains(string(b), "redirect to another host") {
						t.Error("the JSON report does not say that a redirect to another host was not followed")
					}
				}
			},
			exit: exitFail, verdict: `^FAIL: the target breaks \d+ rule\(s\) of the spec`, maxTook: fullRun,
		},
	}
}

// TestHostileTargets runs the real CLI against each hostile target, in
// parallel (each run is its own process).
func TestHostileTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the CLI as subprocesses")
	}
	start := time.Now()
	t.Cleanup(func() { t.Logf("harness wall time: %s", time.Since(start).Round(time.Millisecond)) })
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			tok := newTokens()
			base, args, after := sc.target(t, tok)
			auth := tok.auth
			if sc.readOnly {
				auth = ""
			}
			r := runCLI(t, tok.api, auth, append([]string{"--base-url", base}, args...)...)
			checkCommon(t, r, sc.exit, regexp.MustCompile(sc.verdict), sc.maxTook, tok.api, tok.auth)
			if r.Report != nil && r.Report.Meta.Requests == 0 {
				t.Error("the report counts no request")
			}
			if after != nil {
				after(t, r)
			}
		})
	}
}

// checkMemory checks the run's peak memory against bound.
func checkMemory(t *testing.T, r cliRun, bound int64) {
	t.Helper()
	if r.MaxRSS == 0 {
		t.Log("peak memory not measured on this platform")
		return
	}
	if testkit.RaceEnabled {
		bound = int64(float64(bound) * raceFactor)
	}
	if r.MaxRSS > bound {
		t.Errorf("peak memory %.1f MB, bound %.1f MB", float64(r.MaxRSS)/(1<<20), float64(bound)/(1<<20))
	}
}

// checkRetriesReported checks that the retries are counted in the console
// summary or verdict and the report, and listed one by one in the report.
func checkRetriesReported(t *testing.T, r cliRun, want int) {
	t.Helper()
	if r.Report == nil {
		return
	}
	if r.Report.Meta.Retries != want {
		t.Errorf("the report counts %d retries, want %d", r.Report.Meta.Retries, want)
	}
	listed := 0
	for _, o := range r.Report.Observations {
		if strings.HasPrefix(o, "retry: ") {
			listed++
		}
	}
	if listed != min(want, 20) {
		t.Errorf("the report lists %d retries, want %d: %q", listed, want, r.Report.Observations)
	}
	counted := fmt.Sprintf("(%d retried after 429/503)", want)
	if want > 0 && !strings.Contains(r.Stdout, counted) && !strings.Contains(r.Stdout, fmt.Sprintf("even after %d retr", want)) {
		t.Errorf("the console does not count the %d retries", want)
	}
}

// stoppedAfter reads N from "stopped answering after N requests".
var stoppedAfter = regexp.MustCompile(`stopped answering after (\d+) requests`)

func checkStoppedAfter(t *testing.T, r cliRun, served int) {
	t.Helper()
	if r.Report == nil {
		return
	}
	m := stoppedAfter.FindStringSubmatch(r.Report.Verdict)
	if m == nil {
		return // the verdict check reports it
	}
	if n, _ := strconv.Atoi(m[1]); n != served {
		t.Errorf("the verdict says the target stopped after %d requests; it answered %d", n, served)
	}
	// Whether any rule finished before the target stopped depends on the
	// spec order, which Ginkgo randomises: not asserted.
}

// checkCleanupReported checks that every page the run created and did not
// delete is reported as left, with the failed deletion as a teardown
// problem, and that `conformance cleanup` is suggested.
func checkCleanupReported(t *testing.T, r cliRun, created []string, deleted map[string]bool) (leftOver int) {
	t.Helper()
	if r.Report == nil {
		return 0
	}
	left := map[string]bool{}
	for _, p := range r.Report.Cleanup.PagesLeft {
		left[p] = true
	}
	for _, k := range created {
		if deleted[k] {
			continue
		}
		leftOver++
		if !left[k] {
			t.Errorf("page %s was created and never deleted, and the report does not say so (pages left: %v)", k, r.Report.Cleanup.PagesLeft)
		}
		if !strings.Contains(r.Stdout, "page "+k) {
			t.Errorf("the console summary does not name page %s as left on the target", k)
		}
	}
	if leftOver > 0 {
		if len(r.Report.Cleanup.Problems) == 0 {
			t.Error("cleanup failed but the report lists no teardown problem")
		}
		if !strings.Contains(r.Stdout, "conformance cleanup") {
			t.Error("the console does not point at `conformance cleanup`")
		}
		for _, p := range r.Report.Cleanup.Problems {
			if !strings.Contains(p, "could not delete page") {
				t.Errorf("teardown problem %q does not say what could not be done", p)
			}
		}
	}
	t.Logf("%d page(s) created, %d left on the dead target and reported", len(created), leftOver)
	return leftOver
}
