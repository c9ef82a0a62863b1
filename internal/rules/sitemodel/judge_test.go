package sitemodel

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// story builds the answers of a run one after another on the wire, each
// a millisecond after the last.
type story struct {
	at   time.Time
	seen []Seen
}

func newStory() *story { return &story{at: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)} }

func (st *story) next(method, path string, status int) *Seen {
	st.at = st.at.Add(time.Millisecond)
	ex := &client.Exchange{Method: method, URL: "http://site" + path, Status: status, Sent: true}
	st.seen = append(st.seen, Seen{Ex: ex, From: st.at, To: st.at.Add(time.Millisecond / 2)})
	return &st.seen[len(st.seen)-1]
}

func page(key, typ, title string, tags ...string) gjson.Result {
	t := `{}`
	if len(tags) > 0 {
		t = `{"` + strings.Join(tags, `":"x","`) + `":"x"}`
	}
	return gjson.Parse(`{"key":"` + key + `","type":"` + typ + `","title":"` + title + `","tags":` + t + `,"category":""}`)
}

func (st *story) create(p gjson.Result) {
	s := st.next(http.MethodPost, "/api/pages", http.StatusCreated)
	key := p.Get("key").String()
	s.write = &write{method: http.MethodPost, page: true, status: http.StatusCreated, answered: true, newKey: key}
	s.pages = []shown{{key: key, where: "the answer to POST", obj: p}}
}

func (st *story) edit(key string, status int, p gjson.Result) {
	s := st.next(http.MethodPut, "/api/pages/"+key, status)
	s.write = &write{method: http.MethodPut, page: true, key: key, status: status, answered: status != 0}
	if status == http.StatusOK {
		s.write.newKey = p.Get("key").String()
		s.pages = []shown{{key: s.write.newKey, where: "the answer to PUT", obj: p}}
	}
}

func (st *story) remove(key string) {
	s := st.next(http.MethodDelete, "/api/pages/"+key, http.StatusOK)
	s.write = &write{method: http.MethodDelete, page: true, key: key, status: http.StatusOK, answered: true}
}

func (st *story) get(key string, p *gjson.Result) {
	status := http.StatusNotFound
	if p != nil {
		status = http.StatusOK
	}
	s := st.next(http.MethodGet, "/api/pages/"+key, status)
	s.single = &single{key: key, found: p != nil, gone: p == nil, answerStatus: status}
	if p != nil {
		s.pages = []shown{{key: key, where: "GET /api/pages/" + key, obj: *p}}
	}
}

func (st *story) listAll(only []string, pages ...gjson.Result) {
	s := st.next(http.MethodGet, "/api/pages?numberOfItems=-1", http.StatusOK)
	s.list = &listing{types: []string{"draft", "published", "static", "sticky", "scheduled"}, keys: map[string]bool{}}
	if only != nil {
		s.list.only = map[string]bool{}
		for _, k := range only {
			s.list.only[k] = true
		}
	}
	for _, p := range pages {
		s.list.keys[p.Get("key").String()] = true
		s.pages = append(s.pages, shown{key: p.Get("key").String(), where: "the listing", obj: p})
	}
}

func (st *story) tag(term string, names ...string) {
	s := st.next(http.MethodGet, "/api/tags/"+term, http.StatusOK)
	saw := termSaw{kind: tagKind, term: term, names: map[string]bool{}, where: "GET /api/tags/" + term}
	for _, n := range names {
		saw.names[n] = true
	}
	s.terms = []termSaw{saw}
}

// findings are the rules of v's findings, in order.
func findings(v Verdicts) []string {
	var out []string
	for _, f := range v.Findings {
		out = append(out, f.Rule)
	}
	return out
}

func wantFindings(t *testing.T, v Verdicts, rules ...string) {
	t.Helper()
	if got := strings.Join(findings(v), " "); got != strings.Join(rules, " ") {
		t.Errorf("findings %q, want %q:\n%v", got, strings.Join(rules, " "), v.Findings)
	}
}

func TestAWriteOfAnotherPageChangesNothingHere(t *testing.T) {
	st := newStory()
	a, b := page("run-a", "draft", "A"), page("run-b", "draft", "B")
	st.create(a)
	st.create(b)
	st.edit("run-b", http.StatusOK, page("run-b", "draft", "B2"))
	changed := page("run-a", "draft", "B2") // the edit of b reached a
	st.get("run-a", &changed)
	v := Judge(st.seen)
	wantFindings(t, v, RuleViewsAgree)
	if p := v.Findings[0].Problem; !strings.Contains(p, "PUT http://site/api/pages/run-b") || !strings.Contains(p, `title is "B2"`) {
		t.Errorf("the finding should name the field and the write between: %s", p)
	}
	if v.Judged[RuleViewsAgree] == 0 {
		t.Error("nothing counted as judged")
	}
}

func TestTheEditedPageIsLearnedAgain(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	st.edit("run-a", http.StatusOK, page("run-a", "draft", "A2"))
	now := page("run-a", "draft", "A2")
	st.get("run-a", &now)
	wantFindings(t, Judge(st.seen))
}

func TestARefusedEditChangesNothing(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	st.edit("run-a", http.StatusBadRequest, gjson.Result{})
	applied := page("run-a", "draft", "sent anyway")
	st.get("run-a", &applied)
	v := Judge(st.seen)
	wantFindings(t, v, RuleViewsAgree)
	if !strings.Contains(v.Findings[0].Problem, "the refused PUT") {
		t.Errorf("the finding should name the refused write: %s", v.Findings[0].Problem)
	}
}

func TestAWriteWithoutAnswerLeavesItsPageUnjudged(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	st.edit("run-a", 0, gjson.Result{})
	other := page("run-a", "draft", "who knows")
	st.get("run-a", &other)
	st.get("run-a", nil)
	wantFindings(t, Judge(st.seen))
}

func TestACreateWithoutAnswerStopsTheModel(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	s := st.next(http.MethodPost, "/api/pages", 0)
	s.write = &write{method: http.MethodPost, page: true}
	st.get("run-a", nil)
	v := Judge(st.seen)
	wantFindings(t, v)
	if v.Stopped == "" {
		t.Error("the model should say why it stopped")
	}
}

func TestADeletedPageIsGoneFromEveryView(t *testing.T) {
	st := newStory()
	a := page("run-a", "published", "A", "t1")
	st.create(a)
	st.remove("run-a")
	st.get("run-a", &a)
	st.listAll(nil, a)
	st.tag("t1", "run-a")
	wantFindings(t, Judge(st.seen), RuleDeleteGone, RuleDeleteGone, tagKind.consistent)
}

func TestARenamedPagesOldKeyIsGone(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	st.edit("run-a", http.StatusOK, page("run-b", "draft", "B"))
	old := page("run-a", "draft", "A")
	st.get("run-a", &old)
	st.get("run-b", nil)
	wantFindings(t, Judge(st.seen), RuleKeyChange, RuleGetOK)
}

func TestACompleteListingListsEveryLivePage(t *testing.T) {
	st := newStory()
	a, b := page("run-a", "draft", "A"), page("run-b", "static", "B")
	st.create(a)
	st.create(b)
	st.listAll(nil, a)               // lacks run-b
	st.listAll([]string{"run-a"}, a) // kept run-a alone: says nothing of run-b
	v := Judge(st.seen)
	wantFindings(t, v, RuleTypeFilters)
	if !strings.Contains(v.Findings[0].Problem, "run-b") {
		t.Errorf("the finding should name the page missing: %s", v.Findings[0].Problem)
	}
}

func TestATagNamesItsPublishedPagesAndNoOther(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "published", "A", "t1"))
	st.create(page("run-b", "draft", "B", "t1"))
	st.create(page("run-c", "published", "C"))
	st.tag("t1", "run-b", "run-c") // lacks run-a; names run-c, which lacks t1; run-b a draft: either way
	v := Judge(st.seen)
	wantFindings(t, v, tagKind.complete, tagKind.consistent)
}

func TestAScheduledPagePublishedMeanwhile(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "scheduled", "A", "t1"))
	now := page("run-a", "published", "A", "t1")
	st.get("run-a", &now)
	st.tag("t1") // the host lists it at its next write only
	v := Judge(st.seen)
	wantFindings(t, v)
}

func TestAReadBesideAWriteIsNotJudged(t *testing.T) {
	st := newStory()
	st.create(page("run-a", "draft", "A"))
	st.edit("run-a", http.StatusOK, page("run-a", "draft", "A2"))
	before := page("run-a", "draft", "A")
	st.get("run-a", &before)
	// The read was on its way while the edit was.
	st.seen[len(st.seen)-1].From = st.seen[len(st.seen)-2].From
	wantFindings(t, Judge(st.seen))
}

func TestASettingsUpdateMakesFieldsLearnedAgain(t *testing.T) {
	st := newStory()
	st.create(gjson.Parse(`{"key":"run-a","permalink":"http://site/a"}`))
	s := st.next(http.MethodPut, "/api/settings", http.StatusOK)
	s.write = &write{method: http.MethodPut, status: http.StatusOK, answered: true}
	moved := gjson.Parse(`{"key":"run-a","permalink":"http://site/page/a"}`)
	st.get("run-a", &moved)
	wantFindings(t, Judge(st.seen))
}
