package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/cleanup"
	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/runner"
	"github.com/conformance-suite/conformance/internal/tripwire"
	"github.com/conformance-suite/conformance/schemas"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var tf targetFlags
	var mutants []string
	var profile string
	cmd := &cobra.Command{
		Use:   "demo [--mutant NAME]... [--profile NAME] [flags]",
		Short: "Run the whole suite against the built-in reference server (no setup)",
		Long: `demo starts the reference server on a free loopback port and runs the whole suite
against it with writes and settings writes enabled. Unless report flags say otherwise it
writes conformance-reports/demo.json, demo-junit.xml and demo.html.

--mutant NAME switches on one of the reference server's deliberate bugs (see
'conformance serve-reference --list-mutants'), to see what a failing run looks like.
--profile NAME switches on a whole other conforming behaviour set (divergent: every
choice the spec allows that the reference does not make; literal: settings stored as
sent, where the reference, like the host, derives and converts them).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Only the run flags' variables apply: demo has no target flags,
			// so CONFORMANCE_BASE_URL and the tokens cannot redirect it.
			if problems := applyEnv(cmd.Flags()); len(problems) > 0 {
				return usage(stderr, problems)
			}
			srv, base, err := startReference(mutants, profile, &tf.cfg)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			defer srv.Close()
			tf.cfg.BaseURL = base
			tf.cfg.SettingsWrites = !tf.cfg.ReadOnly
			tf.cfg.SuiteVersion = Version()
			if !cmd.Flags().Changed("json-report") && tf.cfg.JSONReport == "" {
				tf.cfg.JSONReport = "conformance-reports/demo.json"
			}
			if !cmd.Flags().Changed("junit-report") && tf.cfg.JUnitReport == "" {
				tf.cfg.JUnitReport = "conformance-reports/demo-junit.xml"
			}
			if !cmd.Flags().Changed("html-report") && tf.cfg.HTMLReport == "" {
				tf.cfg.HTMLReport = "conformance-reports/demo.html"
			}
			return runChecks(cmd.Context(), tf.cfg, stdout, stderr)
		},
	}
	tf.registerRun(cmd.Flags())
	cmd.Flags().DurationVar(&tf.cfg.RequestTimeout, "request-timeout", client.DefaultRequestTimeout, "timeout of each request")
	registerCredentials(cmd.Flags(), &tf.cfg.Credentials)
	cmd.Flags().StringArrayVar(&mutants, "mutant", nil, "switch on a reference-server mutant (repeatable)")
	cmd.Flags().StringVar(&profile, "profile", "", profileHelp)
	return cmd
}

// profileHelp is the help of the --profile flag.
const profileHelp = "switch on a reference-server profile: divergent (every choice the spec allows, at once), " +
	"literal (settings stored as sent)"

// startReference serves a fresh reference server on 127.0.0.1 with new
// tokens, which it stores in cfg.
func startReference(mutants []string, profile string, cfg *runner.Config) (*http.Server, string, error) {
	cfg.Token, cfg.AuthToken = reference.NewToken(), reference.NewToken()
	h, err := reference.New(reference.Options{Token: cfg.Token, AuthToken: cfg.AuthToken,
		Mutants: reference.AsMutants(mutants), Profile: reference.Profile(profile)})
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}

// maxGeneratedPages bounds --generated-pages: the reference server keeps
// its pages in memory (a few KB each).
const maxGeneratedPages = 200_000

func newServeReferenceCmd(stdout, stderr io.Writer) *cobra.Command {
	var addr, token, auth, profile, storageDir string
	var mutants []string
	var list bool
	var generated int
	cmd := &cobra.Command{
		Use:   "serve-reference [--addr 127.0.0.1:8080] [--token T] [--auth-token A] [--mutant NAME]... [--profile NAME] [--storage-dir DIR] [--generated-pages N]",
		Short: "Serve the in-memory reference implementation of the API",
		Long: `serve-reference runs the suite's reference server, an in-memory implementation of the
whole spec seeded with sample content, for people building clients or servers of the API.
Tokens not given are generated (64 hex characters) and printed. State lives in memory only,
unless --storage-dir DIR is given: then the pages, tags, categories and settings live in JSON
index files in DIR (seeded at start), read and rewritten like the host's flat files, without
transactions: requests side by side lose data there, as on the host. --generated-pages N adds
N generated pages of a realistic mix (every type, child pages, tags with a long tail,
categories, 1-5 KB of content; the same site for the same N), to try a client or the suite
against a big site, as the suite's scale benchmark does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if problems := applyEnv(cmd.Flags()); len(problems) > 0 {
				return usage(stderr, problems)
			}
			if list {
				for _, m := range reference.Mutants() {
					kind := "breaks " + fmt.Sprint(m.Rules)
					switch {
					case m.Benign:
						kind = "benign (the spec allows it)"
					case m.Hazard:
						kind = "hazard (befalls a real site; the suite must notice)"
					}
					fmt.Fprintf(stdout, "%-36s %s: %s\n", m.Name, kind, m.Description)
				}
				return nil
			}
			if generated < 0 || generated > maxGeneratedPages {
				return usage(stderr, []string{fmt.Sprintf("--generated-pages %d: want 0 to %d", generated, maxGeneratedPages)})
			}
			if token == "" {
				token = reference.NewToken()
			}
			if auth == "" {
				auth = reference.NewToken()
			}
			opts := reference.Options{Token: token, AuthToken: auth,
				Mutants: reference.AsMutants(mutants), Profile: reference.Profile(profile), StorageDir: storageDir}
			if generated > 0 {
				opts.Seed = reference.GeneratedSite(generated)
			}
			h, err := reference.New(opts)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
			base := "http://" + ln.Addr().String()
			fmt.Fprintf(stdout, "Reference server listening on %s\n\n  export CONFORMANCE_BASE_URL=%s\n  export CONFORMANCE_TOKEN=%s\n  export CONFORMANCE_AUTH_TOKEN=%s\n\nThen: conformance --allow-settings-write   (Ctrl-C stops the server)\n",
				base, base, token, auth)
			go func() {
				<-cmd.Context().Done()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				_ = srv.Shutdown(ctx)
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	cmd.Flags().StringVar(&token, "token", "", "API token (generated when empty)")
	cmd.Flags().StringVar(&auth, "auth-token", "", "authentication token (generated when empty)")
	cmd.Flags().StringArrayVar(&mutants, "mutant", nil, "switch on a mutant (repeatable; see --list-mutants)")
	cmd.Flags().StringVar(&profile, "profile", "", profileHelp)
	cmd.Flags().BoolVar(&list, "list-mutants", false, "list the mutants and exit")
	cmd.Flags().IntVar(&generated, "generated-pages", 0, fmt.Sprintf("add this many generated pages to the sample content (a big site; at most %d)", maxGeneratedPages))
	cmd.Flags().StringVar(&storageDir, "storage-dir", "", "keep the pages, tags, categories and settings in JSON index files in this directory, "+
		"as fragile as the host's flat files (requests side by side lose data); its index files are replaced by the seed at start")
	return cmd
}

func newCleanupCmd(stdout, stderr io.Writer) *cobra.Command {
	var tf targetFlags
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "cleanup --base-url URL --token T --auth-token A [--dry-run]",
		Short: "Delete pages that earlier runs left behind (found by their run marker, and only those)",
		Long: `cleanup lists the target's pages and deletes those an earlier run of the suite left
behind: the pages whose first key segment carries a run marker
(conformance-<date>t<time>-<random>-...), and only those; children are deleted before
their parents. A run deletes what it creates, also on failure, timeout and Ctrl-C;
cleanup is for what is left when a delete failed or the process was killed.

--dry-run only lists the pages it would delete, and needs no authentication token.
Uploaded files cannot be deleted through the API: cleanup leaves them.

Deletes go out one at a time, nothing else beside them. If pages that are not the
runs' leftovers stop being listed while it deletes (the site is losing data), it stops
at once and says so.

Exit codes: 0 every page found was deleted (or, with --dry-run, listed); 1 a delete
failed; 2 usage or configuration error; 3 the target's pages cannot be listed, or the
site lost pages while cleanup ran.`,
		Example: `  CONFORMANCE_TOKEN=... conformance cleanup --base-url https://staging.example.org --dry-run
  conformance cleanup --base-url https://staging.example.org --token-file api.token \
      --auth-token-file auth.token`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			problems := setup(cmd, &tf)
			if tf.cfg.BaseURL == "" || tf.cfg.Token == "" || (tf.cfg.AuthToken == "" && !dryRun) {
				problems = append(problems, "cleanup needs --base-url, --token and --auth-token (or their CONFORMANCE_* variables)")
			}
			if len(problems) > 0 {
				return usage(stderr, problems)
			}
			cc := tf.cfg.ClientConfig()
			cc.ReadOnly = cc.ReadOnly || dryRun // a dry run lists, and cannot do more
			c, err := client.New(cc)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			out := c.Redactor().Writer(stdout)
			defer out.Flush()
			// The tripwire: a site seen losing pages that are not the
			// runs' leftovers gets no further delete.
			tw := tripwire.New()
			tw.MayRemove = marker.IsRunMarked
			c.SetWriteGuard(tw)
			res, err := cleanup.Run(cmd.Context(), c, dryRun)
			if err != nil {
				fmt.Fprintf(out, "conformance: cannot list pages: %v\n", err)
				return exitError{runner.ExitUnusable}
			}
			if !dryRun {
				tw.Final(cmd.Context(), c)
			}
			if trip := tw.Tripped(); trip != nil {
				fmt.Fprintln(out, trip.Sentence("cleanup", nil, ""))
				return exitError{runner.ExitUnusable}
			}
			verb := "deleted"
			if dryRun {
				verb = "would delete"
			}
			for _, k := range res.Deleted {
				fmt.Fprintf(out, "%s %s\n", verb, k)
			}
			for _, f := range res.Failed {
				fmt.Fprintf(out, "could not delete %s\n", f)
			}
			fmt.Fprintf(out, "%d page(s) %s, %d failed.\n", len(res.Deleted), verb, len(res.Failed))
			if len(res.Failed) > 0 {
				return exitError{runner.ExitFail}
			}
			return nil
		},
	}
	tf.register(cmd.Flags())
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only list what would be deleted")
	return cmd
}

func newSchemasCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schemas",
		Short: "Work with the JSON Schemas of the API's resources and envelopes",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "export DIR",
		Short: "Write every JSON Schema (draft-07) into DIR",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := schemas.Export(args[0]); err != nil {
				return usage(stderr, []string{err.Error()})
			}
			fmt.Fprintf(stdout, "wrote %d schemas to %s\n", len(schemas.Names()), args[0])
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the schema names",
		Args:  cobra.NoArgs,
		Run: func(*cobra.Command, []string) {
			for _, n := range schemas.Names() {
				fmt.Fprintln(stdout, n)
			}
		},
	})
	return cmd
}
