// Package fronts starts real web servers (Debian's nginx and Apache httpd)
// as reverse proxies in front of an API backend, configured like the real
// deployments the suite meets, so that tests can run the suite through
// them and see which requests the front answers itself.
//
// Each front runs from its own generated configuration, with its pid file,
// logs and temporary files in a directory of its own, listening on a free
// 127.0.0.1 port. Nothing of the system's configuration (/etc/nginx,
// /etc/apache2) is read; only the binaries and Apache's module files are.
package fronts

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Kind names a web server.
type Kind string

// The fronts this package can start.
const (
	Nginx  Kind = "nginx"
	Apache Kind = "apache2"
)

// Kinds lists every front, in a fixed order.
func Kinds() []Kind { return []Kind{Nginx, Apache} }

// server is what one kind of front needs: where its binary is, how its
// configuration reads, how it is started.
type server struct {
	// binaries are the names and paths to try, in order. Daemons live in
	// /usr/sbin, which is not on every PATH.
	binaries []string
	// pkg is the Debian package that installs it.
	pkg string
	// config renders the configuration file.
	config func(s site) (string, error)
	// args are the command-line arguments, given the config path and the
	// front's directory.
	args func(conf, dir string) []string
	// errorLog is the file (relative to the front's directory) its errors go to.
	errorLog string
	// serverHeader starts its Server header (lowercase).
	serverHeader string
}

// site is what a configuration is rendered from.
type site struct {
	Dir     string // the front's directory (absolute)
	Port    int    // the port to listen on, on 127.0.0.1
	Backend string // scheme://host:port of the API backend, no path
	// AsRoot: the front is started by root, so it must name an
	// unprivileged user for its workers.
	AsRoot bool
}

var servers = map[Kind]server{
	Nginx: {binaries: []string{"nginx", "/usr/sbin/nginx"}, pkg: "nginx", config: nginxConfig,
		args: func(conf, dir string) []string {
			// -e: errors before the config is read go to our log too, not
			// to the package's /var/log/nginx.
			return []string{"-p", dir + "/", "-c", conf, "-e", filepath.Join(dir, "logs", "error.log")}
		}, errorLog: "logs/error.log", serverHeader: "nginx"},
	Apache: {binaries: []string{"apache2", "/usr/sbin/apache2", "httpd", "/usr/sbin/httpd"}, pkg: "apache2", config: apacheConfig,
		args: func(conf, _ string) []string {
			return []string{"-f", conf, "-DFOREGROUND"}
		}, errorLog: "logs/error.log", serverHeader: "apache"},
}

// Binary returns the path of the kind's binary, or an error that says how
// to install it.
func Binary(kind Kind) (string, error) {
	return findBinary(kind, exec.LookPath)
}

func findBinary(kind Kind, lookPath func(string) (string, error)) (string, error) {
	s, ok := servers[kind]
	if !ok {
		return "", fmt.Errorf("fronts: unknown kind %q", kind)
	}
	for _, name := range s.binaries {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not installed (looked for %s); install it with: apt-get install -y %s",
		kind, strings.Join(s.binaries, ", "), s.pkg)
}

// Front is one running web server in front of a backend.
type Front struct {
	Kind Kind
	// URL is the site root behind the front: http://127.0.0.1:PORT.
	URL string
	// Dir holds its configuration, pid file, logs and temporary files.
	Dir string
	// Startup is the time from starting the binary until it first
	// answered.
	Startup time.Duration

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// startTimeout bounds how long a front may take to listen.
const startTimeout = 15 * time.Second

// Launch starts a front of the given kind in front of backend (a URL such as
// http://127.0.0.1:8080; any path is ignored), with its configuration and
// state in dir, which must exist. It returns once the front accepts
// connections. Stop ends it.
func Launch(ctx context.Context, kind Kind, backend, dir string) (*Front, error) {
	bin, err := Binary(kind)
	if err != nil {
		return nil, err
	}
	be, err := backendOrigin(backend)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// The port is picked free and then released, so another process may
	// take it before the front binds it: try again on a new one.
	var errs []error
	for range 3 {
		f, err := launchOnce(ctx, kind, bin, be, dir)
		if err == nil {
			return f, nil
		}
		errs = append(errs, err)
		if !errors.Is(err, errPortTaken) {
			break
		}
	}
	return nil, errors.Join(errs...)
}

var errPortTaken = errors.New("the port was taken")

func launchOnce(ctx context.Context, kind Kind, bin, backend, dir string) (*Front, error) {
	s := servers[kind]
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	st := site{Dir: dir, Port: port, Backend: backend, AsRoot: os.Geteuid() == 0}
	if err := prepareDirs(st); err != nil {
		return nil, err
	}
	text, err := s.config(st)
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, string(kind)+".conf")
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, s.errorLog)
	_ = os.Remove(logPath) // a failed earlier attempt's log would mislead
	cmd := exec.Command(bin, s.args(conf, dir)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	cmd.SysProcAttr = procAttr()
	out, err := os.Create(filepath.Join(dir, "logs", "console.log"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	f := &Front{Kind: kind, URL: fmt.Sprintf("http://127.0.0.1:%d", port), Dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(f.done) }()
	if err := f.awaitReady(ctx); err != nil {
		_ = f.Stop()
		logs := f.Logs()
		if strings.Contains(logs, "in use") {
			return nil, fmt.Errorf("%w: %w\n%s", errPortTaken, err, logs)
		}
		return nil, fmt.Errorf("%s did not start: %w\n%s", kind, err, logs)
	}
	f.Startup = time.Since(start)
	return f, nil
}

// readyTarget is what awaitReady asks: TRACE, which both fronts refuse
// themselves (405), so the backend never sees it. OwnAnswers leaves it out.
const readyTarget = "/.fronts-ready"

// awaitReady polls until the front answers a request itself (its Server
// header names it: a port taken by someone else does not count), the
// process exits, or startTimeout passes.
func (f *Front) awaitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	c := http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodTrace, f.URL+readyTarget, nil)
		if err != nil {
			return err
		}
		if res, err := c.Do(req); err == nil {
			_ = res.Body.Close()
			if strings.HasPrefix(strings.ToLower(res.Header.Get("Server")), servers[f.Kind].serverHeader) {
				return nil
			}
		}
		select {
		case <-f.done:
			return fmt.Errorf("it exited (%s)", f.cmd.ProcessState)
		case <-ctx.Done():
			return fmt.Errorf("it did not answer on %s within %s: %w", f.URL, startTimeout, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// stopTimeout bounds a graceful stop before the process group is killed.
const stopTimeout = 5 * time.Second

// Stop ends the front: SIGTERM (a fast shutdown for both servers), then
// SIGKILL to its process group when it has not exited after stopTimeout.
// Calling it again does nothing.
func (f *Front) Stop() error {
	select {
	case <-f.done:
		return nil
	default:
	}
	terminate(f.cmd.Process)
	select {
	case <-f.done:
		// Workers normally leave with their master; make sure.
		killGroup(f.cmd.Process)
		return nil
	case <-time.After(stopTimeout):
	}
	killGroup(f.cmd.Process)
	<-f.done
	return fmt.Errorf("%s did not stop within %s after SIGTERM and was killed", f.Kind, stopTimeout)
}

// Logs returns the front's console output and error log, for failure
// messages.
func (f *Front) Logs() string {
	var b strings.Builder
	for _, name := range []string{"logs/console.log", servers[f.Kind].errorLog} {
		if data, err := os.ReadFile(filepath.Join(f.Dir, name)); err == nil && len(data) > 0 {
			fmt.Fprintf(&b, "--- %s %s ---\n%s\n", f.Kind, name, strings.TrimRight(string(data), "\n"))
		}
	}
	return b.String()
}

// OwnAnswer is a request the front answered itself, without the backend.
type OwnAnswer struct {
	Request string // the request line as logged (tokens and all: redact before printing)
	Status  int
}

func (a OwnAnswer) String() string { return fmt.Sprintf("%s -> %d", a.Request, a.Status) }

// ownAnswerMark is the access log field (see both configurations) that
// shows the front answered without the backend.
const ownAnswerMark = " backend=-"

// OwnAnswers reads the front's access log and returns the requests it
// answered itself so far, in order. Both servers log a request after
// answering it.
func (f *Front) OwnAnswers() ([]OwnAnswer, error) {
	data, err := os.ReadFile(filepath.Join(f.Dir, "logs", "access.log"))
	if err != nil {
		return nil, err
	}
	var own []OwnAnswer
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasSuffix(line, ownAnswerMark) || strings.Contains(line, `"TRACE `+readyTarget+` `) {
			continue
		}
		// ... "REQUEST LINE" STATUS BYTES mark
		open, end := strings.IndexByte(line, '"'), strings.LastIndexByte(line, '"')
		if open < 0 || end <= open {
			continue
		}
		var a OwnAnswer
		a.Request = line[open+1 : end]
		if _, err := fmt.Sscanf(line[end+1:], " %d", &a.Status); err != nil {
			return own, fmt.Errorf("%s access log: no status in %q", f.Kind, line)
		}
		own = append(own, a)
	}
	return own, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// prepareDirs makes the front's directory tree. Started by root, both
// servers run their workers as an unprivileged user, which must be able to
// write the temporary directories and read the document root.
func prepareDirs(s site) error {
	for _, d := range []string{"logs", "run", "tmp", "www"} {
		if err := os.MkdirAll(filepath.Join(s.Dir, d), 0o755); err != nil {
			return err
		}
	}
	if !s.AsRoot {
		return nil
	}
	if err := os.Chmod(filepath.Join(s.Dir, "tmp"), 0o1777); err != nil {
		return err
	}
	return os.Chmod(s.Dir, 0o755)
}

// backendOrigin reduces a backend URL to scheme://host:port.
func backendOrigin(backend string) (string, error) {
	scheme, rest, ok := strings.Cut(backend, "://")
	if !ok || (scheme != "http" && scheme != "https") || rest == "" {
		return "", fmt.Errorf("fronts: backend %q is not an http(s) URL", backend)
	}
	host, _, _ := strings.Cut(rest, "/")
	if strings.ContainsAny(host, " \t\n;{}\"'") {
		return "", fmt.Errorf("fronts: backend host %q cannot go into a configuration file", host)
	}
	return scheme + "://" + host, nil
}
