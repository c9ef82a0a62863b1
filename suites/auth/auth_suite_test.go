package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/suites/auth"
	"github.com/conformance-suite/conformance/suites/protocol"
)

// readOnlyChildEnv, when set, makes TestAuth the read-only run of
// TestReadOnlyRun instead of the ordinary one.
const readOnlyChildEnv = "CONFORMANCE_AUTH_READ_ONLY_CHILD"

// TestAuth runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the run left the
// target's content as it found it: the refused writes this area sends must
// have changed nothing, and what they made on a broken server must have
// been removed. RunSpecs runs once per process, so the snapshots are taken
// around it.
func TestAuth(t *testing.T) {
	if os.Getenv(readOnlyChildEnv) != "" {
		readOnlyRun(t)
		return
	}
	RegisterFailHandler(Fail)
	target, snapshot := frameworktest.FixtureAndSnapshot(t)
	before := takeSnapshot(t, snapshot, "before")
	framework.Install(target)
	auth.Register(target)
	RunSpecs(t, "auth")
	after := takeSnapshot(t, snapshot, "after")
	if diff := before.Diff(after); len(diff) > 0 {
		t.Errorf("the run changed the target's content (%d differences):\n  %s", len(diff), strings.Join(diff, "\n  "))
	}
}

func takeSnapshot(t *testing.T, snapshot func(context.Context) (frameworktest.Snapshot, error), when string) frameworktest.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot %s the run: %v", when, err)
	}
	return s
}

// TestReadOnlyRun runs the auth and protocol specs as a --read-only run
// would, against the reference server, in a child process (RunSpecs runs
// once per process), and fails if any request other than a GET carried the
// authentication token, or if a spec not marked as writing tried to write.
func TestReadOnlyRun(t *testing.T) {
	if os.Getenv(readOnlyChildEnv) != "" {
		t.Skip("this is the child run")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAuth$", "-test.count=1")
	cmd.Env = append(os.Environ(), readOnlyChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) > 6000 {
			out = out[len(out)-6000:]
		}
		t.Fatalf("the read-only run failed (%v):\n%s", err, out)
	}
}

// readOnlyRun is the child of TestReadOnlyRun. The client has the
// authentication token (as a --read-only run given one does) and refuses
// writes; every exchange is watched.
func readOnlyRun(t *testing.T) {
	token, authToken := reference.NewToken(), reference.NewToken()
	srv, err := reference.New(reference.Options{Token: token, AuthToken: authToken})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, err := client.New(client.Config{BaseURL: ts.URL, Token: token, AuthToken: authToken, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bad []string
	c.OnExchange(func(ex *client.Exchange) {
		refused := errors.Is(ex.Err, client.ErrReadOnly)
		carriesAuth := strings.Contains(ex.URL, client.AuthTokenPlaceholder) || strings.Contains(ex.RequestBody, client.AuthTokenPlaceholder)
		if ex.Method == http.MethodGet || (!refused && !carriesAuth) {
			return
		}
		why := "carried the authentication token"
		if refused {
			why = "was refused by the read-only client: its spec writes without being marked Writes"
		}
		mu.Lock()
		defer mu.Unlock()
		bad = append(bad, fmt.Sprintf("%s %s (spec %q)", ex.RequestLine(), why, ex.Scope))
	})
	target := framework.New(c, framework.Options{ReadOnly: true})
	RegisterFailHandler(Fail)
	framework.Install(target)
	auth.Register(target)
	protocol.Register(target)
	RunSpecs(t, "auth and protocol, read-only")
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Errorf("in a read-only run %d write request(s) went wrong:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
}
