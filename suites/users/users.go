// Package users checks spec sections 2.4 and 4.8: public user profiles.
package users

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/single"
	"github.com/conformance-suite/conformance/internal/spec"
)

// maxUsers bounds how many single profiles one run reads.
const maxUsers = 10

// minSecretLen is the shortest token looked for by value in users
// responses.
const minSecretLen = 16

// singleOnly are the profile fields the spec's table (2.4) marks "no" for
// the list.
var singleOnly = []string{"codepen", "xing", "telegram", "vk"}

// sensitive are field names that would carry what 2.4 says is never
// returned: email, role, password hash, authentication token (the rule's
// Reading lists them). Compared case-insensitively.
var sensitive = []string{"email", "role", "password", "passwordhash", "salt", "token", "tokenauth", "authentication", "tokenremember"}

// Register adds the users specs for target t. Their reads go out together
// when the first of them runs: the list, the single profiles found in it,
// and a username that does not exist. Specs reading the same URL share one
// request (the client's read cache, and identical reads on their way).
func Register(t *framework.Fixture) {
	Describe("User profiles", framework.PhaseReads, func() {
		reads := t.NewGroup(framework.PhaseReads)
		// The single profiles are read once, by USER-GET-SHAPE's prepare
		// when the run has it (its requests are then its own evidence),
		// and judged by USER-NO-SENSITIVE-FIELDS too (framework.After).
		sharedProfiles := framework.Share(reads, func(ctx context.Context) profiles { return readProfiles(ctx, t) })

		Describe("4.8 GET /api/users", Label(spec.ListUsers.Label()), func() {
			reads.OnRead("USER-LIST-SHAPE", "/api/users", nil, func(ex *client.Exchange) {
				Expect(ex).To(match.BeSuccess(http.StatusOK))
				Expect(ex).To(match.MatchSchema("user-list-response.json"))
				if len(ex.Get("data").Map()) == 0 {
					verdicts.NotChecked("GET /api/users lists no profile: only the envelope could be checked, not a profile's fields")
				}
			})

			reads.OnRead("USER-LIST-KEYED-BY-USERNAME", "/api/users", nil, func(ex *client.Exchange) {
				Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
				Expect(ex).To(match.HaveJSON("data", match.BeJSONObject()), "data must be an object keyed by username")
				if len(ex.Get("data").Map()) == 0 {
					verdicts.NotChecked("GET /api/users lists no profile")
				}
				// The username is told twice: as the key, and in the profile.
				check := t.NewCheck()
				check.Exercised(coverage.CellID("user", "username", coverage.Views))
				for _, wrong := range keysNotUsernames(ex) {
					check.Problem(ex, "%s", wrong)
				}
				check.Expect("each key of data is the username of its profile")
			})

			reads.OnRead("USER-LIST-SUBSET", "/api/users", nil, func(ex *client.Exchange) {
				Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
				if len(listProfiles(ex)) == 0 {
					verdicts.NotChecked("GET /api/users lists no profile")
				}
				Expect(ex).To(match.Holds(fmt.Sprintf("list profiles carry none of %s (spec 2.4: single profile only)",
					strings.Join(singleOnly, ", ")), singleOnlyFields))
			})
		})

		Describe("4.8 GET /api/users/{username}", Label(spec.GetUser.Label()), func() {
			framework.Prepare(reads, "USER-GET-SHAPE", sharedProfiles,
				func(_ SpecContext, p profiles) {
					p.judged(t)
					if p.notChecked != "" {
						verdicts.NotChecked("%s", p.notChecked)
					}
					for i, ex := range p.single {
						name := p.names[i]
						Expect(ex).To(match.BeSuccess(http.StatusOK), "username %q was found on the target", name)
						Expect(ex).To(match.MatchSchema("user-response.json"))
						Expect(ex).To(match.HoldsFields("data.username must be the username asked for", func(ex *client.Exchange) []match.FieldProblem {
							if j := single.Named("users", ex.Get("data"), name); !j.Holds() {
								return []match.FieldProblem{{Field: "data.username", Problem: j.Problem}}
							}
							return nil
						}))
					}
				})

			reads.OnRead("USER-GET-404", client.KeyPath("users", t.Marker("no-such-user")), nil, func(ex *client.Exchange) {
				Expect(ex).To(match.HaveHTTPStatus(http.StatusNotFound))
				Expect(ex).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
			})
		})

		Describe("2.4 User public profile", func() {
			framework.Prepare(reads, "USER-NO-SENSITIVE-FIELDS", sharedProfiles,
				func(_ SpecContext, p profiles) { judgeNoSensitiveFields(t, p) }, framework.After("USER-GET-SHAPE"))
			framework.Prepare(reads, "USER-VIEWS-AGREE", sharedProfiles,
				func(_ SpecContext, p profiles) { judgeViewsAgree(t, p) }, framework.After("USER-GET-SHAPE"))
		})
	})
}

// judgeNoSensitiveFields: USER-NO-SENSITIVE-FIELDS on the list and every
// single profile read.
func judgeNoSensitiveFields(t *framework.Fixture, p profiles) {
	p.judged(t)
	exs := append([]*client.Exchange{p.list}, p.single...)
	// By value: the run's own tokens must appear in no users response,
	// whatever the field. Only the fact is reported; the client redacts the
	// values from every printed exchange.
	secrets := map[string]string{"the API token": t.Client.Token(), "the authentication token": t.Client.AuthToken()}
	found := 0
	for _, ex := range exs {
		for what, secret := range secrets {
			// A short token (a test setup's) could occur in a profile by
			// chance; real ones are far longer (5.8: 64 hexadecimal
			// characters, older ones more).
			if len(secret) >= minSecretLen {
				Expect(ex).To(match.Holds("the response body does not contain "+what+" (value not shown)",
					func(ex *client.Exchange) []string {
						if bytes.Contains(ex.Body(), []byte(secret)) {
							return []string{"the body contains " + what}
						}
						return nil
					}))
			}
		}
		// By name: in every profile the response holds.
		found += len(profilesOf(ex))
		Expect(ex).To(match.Holds("profiles never carry email, role, password hash or tokens (spec 2.4)", sensitiveFields))
	}
	if found == 0 {
		verdicts.NotChecked("no users response held a profile to look at")
	}
}

// judgeViewsAgree: USER-VIEWS-AGREE. Each profile read on its own is
// compared with the list's profile of the same username, on the 15 fields
// the list shows (2.4).
func judgeViewsAgree(t *framework.Fixture, p profiles) {
	p.judged(t)
	if p.notChecked != "" {
		verdicts.NotChecked("%s", p.notChecked)
	}
	listed := map[string]gjson.Result{}
	for _, prof := range listProfiles(p.list) {
		if u := prof.Get("username"); u.Type == gjson.String {
			listed[u.Str] = prof
		}
	}
	check := t.NewCheck()
	cell := func(f string) coverage.ID { return coverage.CellID("user", f, coverage.Views) }
	pairs := 0
	for i, ex := range p.single {
		inList, ok := listed[p.names[i]]
		if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() || !ok {
			continue // the shape rules judge a profile that cannot be read
		}
		pairs++
		check.Same("profile "+strconv.Quote(p.names[i]), cell, nil, []coverkit.View{
			{Name: "GET /api/users", Ex: p.list, Obj: inList},
			{Name: "GET /api/users/" + p.names[i], Ex: ex, Obj: ex.Get("data")},
		}, coverage.UserListFields()...)
	}
	if pairs == 0 {
		verdicts.NotChecked("no profile read on its own is also in GET /api/users, so no two views of one profile could be compared")
	}
	check.Expect("the list and the single profile of a user agree on the fields the list shows (2.4)")
}

// profiles is the users list and the single profiles of the usernames
// found (in the list, or as authors of listed pages).
type profiles struct {
	list   *client.Exchange
	names  []string
	single []*client.Exchange // single[i] is GET /api/users/{names[i]}
	// notChecked says why no single profile was read.
	notChecked string
}

// judged names p's exchanges as evidence of the running spec (another
// spec's prepare may have made them).
func (p profiles) judged(t *framework.Fixture) {
	t.Judged(append([]*client.Exchange{p.list}, p.single...)...)
}

// readProfiles reads the users list, then the profile of each of up to
// maxUsers usernames side by side (Fixture.All).
func readProfiles(ctx context.Context, t *framework.Fixture) profiles {
	p := profiles{list: t.Read(ctx, "/api/users", nil)}
	p.names = usernames(ctx, t, p.list)
	if len(p.names) == 0 {
		p.notChecked = "no username found: GET /api/users lists none and no listed page names an author"
		return p
	}
	reqs := make([]client.Request, len(p.names))
	for i, name := range p.names {
		reqs[i] = client.Request{Method: http.MethodGet, Path: client.KeyPath("users", name)}
	}
	p.single = t.All(ctx, reqs...)
	return p
}

// keysNotUsernames lists the keys of a users list's data that are not the
// username of the profile they hold.
func keysNotUsernames(ex *client.Exchange) []string {
	var wrong []string
	profiles := ex.Get("data").Map()
	for _, key := range slices.Sorted(maps.Keys(profiles)) {
		if u := profiles[key].Get("username"); u.Type != gjson.String || u.Str != key {
			wrong = append(wrong, fmt.Sprintf("key %q holds the profile of username %s", key, match.Show(u)))
		}
	}
	return wrong
}

// singleOnlyFields lists the single-profile-only fields the profiles of a
// users list carry.
func singleOnlyFields(ex *client.Exchange) []string {
	var extra []string
	for _, p := range listProfiles(ex) {
		for _, f := range singleOnly {
			if p.Get(f).Exists() {
				extra = append(extra, fmt.Sprintf("profile %s carries %s", match.Show(p.Get("username")), f))
			}
		}
	}
	return extra
}

// sensitiveFields lists the fields of sensitive names (any case) the
// profiles of a users response carry.
func sensitiveFields(ex *client.Exchange) []string {
	var found []string
	for _, p := range profilesOf(ex) {
		for name := range p.Map() {
			for _, s := range sensitive {
				if strings.EqualFold(name, s) {
					found = append(found, fmt.Sprintf("profile %s carries %s", match.Show(p.Get("username")), name))
				}
			}
		}
	}
	sort.Strings(found)
	return found
}

// listProfiles returns the profiles of a users list response: the values
// of data, whether data is (rightly) an object or (wrongly) an array, so
// that other rules are still judged when the list's shape is wrong.
func listProfiles(ex *client.Exchange) []gjson.Result {
	data := ex.Get("data")
	if data.IsObject() {
		m := data.Map()
		out := make([]gjson.Result, 0, len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[k])
		}
		return out
	}
	return data.Array()
}

// profilesOf returns the profiles of a list or single response.
func profilesOf(ex *client.Exchange) []gjson.Result {
	if u := ex.Get("data.username"); u.Exists() {
		return []gjson.Result{ex.Get("data")}
	}
	return listProfiles(ex)
}

// usernames finds up to maxUsers usernames: from the users list, or, when
// it gives none, from the authors of listed pages.
func usernames(ctx context.Context, t *framework.Fixture, list *client.Exchange) []string {
	var names []string
	if list.Err == nil && list.Status == http.StatusOK {
		// The profiles' own username fields, not the keys of data: a list
		// keyed wrongly is USER-LIST-KEYED-BY-USERNAME's failure, not a
		// reason for this spec to ask for users that do not exist.
		for _, p := range listProfiles(list) {
			if u := p.Get("username"); u.Type == gjson.String && u.Str != "" {
				names = append(names, u.Str)
			}
		}
		if data := list.Get("data"); len(names) == 0 && data.IsObject() {
			names = slices.Sorted(maps.Keys(data.Map()))
		}
	}
	if len(names) == 0 {
		pages := t.Read(ctx, "/api/pages", url.Values{"static": {"true"}, "sticky": {"true"}})
		seen := map[string]bool{}
		for _, p := range pages.Get("data").Array() {
			if u := p.Get("username"); u.Type == gjson.String && u.Str != "" && !seen[u.Str] {
				seen[u.Str] = true
				names = append(names, u.Str)
			}
		}
	}
	if len(names) > maxUsers {
		names = names[:maxUsers]
	}
	return names
}
