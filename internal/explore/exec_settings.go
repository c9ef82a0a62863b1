package explore

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/text"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
)

// This file sends settings updates (4.10). The whole settings map was
// read before the first (session.loadSettings); after each update every
// field is put back and the restore verified with a fresh read. A restore
// that fails stops every further settings update and is reported.

// settingsCase sends a generated settings update and reads it back.
func (s *session) settingsCase(ctx context.Context, c gen.Case, j *oracle.Judge) {
	if !s.site.SettingsWrites {
		return
	}
	_, before, problem := settingsguard.Read(ctx, s.fx, framework.Fresh())
	if problem != "" {
		return
	}
	fs := s.fields(c.Fields, "")
	r := client.Request{Method: http.MethodPut, Path: "/api/settings", Credentials: client.BothTokens}
	body(&r, fs, c.Form)
	ex := s.do(ctx, j, r, "")
	var after map[string]any
	defer func() { s.restoreSettings(ctx, after) }()
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		return
	}
	cf, badCF := c.Field("customFields")
	switch {
	case c.Valid():
		if !j.Status("SETTINGS-EDIT-OK", ex, http.StatusOK) {
			return
		}
		// As the normal run judges it: status "0", a message, no data (4.10).
		j.Judged("SETTINGS-EDIT-OK", ex, "body", "a body matching schema "+settingsEditSchema, rules.Schema(settingsEditSchema, ex.Body()))
	case badCF && cf.Invalid:
		if j.Status("SETTINGS-CUSTOMFIELDS-400", ex, http.StatusBadRequest) {
			j.HandlerError("SETTINGS-CUSTOMFIELDS-400", ex)
		}
	default:
		j.Observe("a settings update with a value of a kind the spec does not allow was answered %d", ex.Status)
	}
	back, now, problem := settingsguard.Read(ctx, s.fx, framework.Fresh())
	if problem != "" {
		return
	}
	after = now
	if ex.Status/100 != 2 {
		changed := s.changedSettings(ctx, before, now)
		if badCF && cf.Invalid {
			for _, name := range changed {
				j.Check("SETTINGS-CUSTOMFIELDS-400", false, back, "unchanged "+name, "a refused update changes nothing: "+name+" as before", fmt.Sprintf("%s changed", name))
			}
		} else if len(changed) > 0 {
			// 4.10 says "400 validation failure", not whether part of
			// the update applied; AUTH-REFUSED-WRITE-NO-EFFECT (5.5) is
			// about refusals for want of a token, and this one had both.
			j.Observe("a settings update answered %d changed %s all the same", ex.Status, strings.Join(changed, ", "))
		}
		return
	}
	var sent []string
	for _, f := range fs {
		sent = append(sent, f.Name)
		v, isText := f.Value.(string)
		if f.Invalid || !isText {
			continue
		}
		got := fmt.Sprint(now[f.Name])
		rule := "SETTINGS-EDIT-PARTIAL"
		if c.Form && text.EncodedTwice(got, v) {
			rule = "GEN-FORM-SANITISED-ONCE"
		}
		j.Check(rule, text.AsSentOrEncodedOnce(got, v), back, "data."+f.Name, f.Name+" "+fmt.Sprintf("%q", v)+" (as sent, or HTML-encoded once)", f.Name+" "+fmt.Sprintf("%q", got))
	}
	for _, name := range s.changedSettings(ctx, before, now, sent...) {
		j.Check("SETTINGS-EDIT-PARTIAL", false, back, "unchanged "+name, name+" as before (not sent)", name+" changed")
	}
}

// refusedSettings sends a settings update without a valid authentication
// token: refused with 401, and nothing changed.
func (s *session) refusedSettings(ctx context.Context, c gen.Case, j *oracle.Judge, r client.Request, want tokens.Answer) {
	if !s.site.SettingsWrites {
		return
	}
	_, before, problem := settingsguard.Read(ctx, s.fx, framework.Fresh())
	if problem != "" {
		return
	}
	r.Method, r.Path = http.MethodPut, "/api/settings"
	body(&r, s.fields(c.Fields, ""), false)
	ex := s.do(ctx, j, r, "")
	var after map[string]any
	defer func() { s.restoreSettings(ctx, after) }()
	if oracle.Judgeable(ex) && ex.Status < 500 {
		j.Status(want.Rule, ex, want.Codes...)
	}
	back, now, problem := settingsguard.Read(ctx, s.fx, framework.Fresh())
	if problem != "" {
		return
	}
	after = now
	for _, name := range s.changedSettings(ctx, before, now) {
		j.Check("AUTH-REFUSED-WRITE-NO-EFFECT", false, back, "settings "+name, "a refused update changes nothing: "+name+" as before", name+" changed")
	}
}

// restoreSettings puts every setting back as it was before the run and
// verifies it (current: the settings as last read, nil when unknown). A
// restore that fails stops every further settings update.
func (s *session) restoreSettings(ctx context.Context, current map[string]any) {
	cctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	if problem := settingsguard.Restore(cctx, s.fx, s.settings, current, s.volatile...); problem != "" {
		s.site.SettingsWrites = false
		s.fx.Ledger.AddProblem("settings not restored: " + problem)
		return
	}
}

// settingsEditSchema is the answer of an accepted settings update
// (SETTINGS-EDIT-OK), as suites/settings matches it.
const settingsEditSchema = "settings-edit-response.json"
