package sitemodel

import (
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

const runID = "20261129t1200-abcdef"

var (
	ours   = "conformance-" + runID + "-a"
	theirs = "conformance-20261129t1200-123456-a" // another run's
)

func TestReadKeepsTheRunsPagesOnly(t *testing.T) {
	listing := rulestest.Send(t, rulestest.OK(`[{"key":"`+ours+`","type":"draft"},{"key":"`+theirs+`","type":"draft"},{"key":"home"}]`),
		client.Request{Path: "/api/pages", Query: map[string][]string{"numberOfItems": {"-1"}, "draft": {"true"}}})
	s, ok := Read(listing, runID, "/api/", WholeBody)
	if !ok || len(s.pages) != 1 || s.pages[0].key != ours {
		t.Fatalf("want the run's page alone, got %+v (ok %v)", s.pages, ok)
	}
	if s.list == nil || !s.list.keys[ours] || s.list.keys[theirs] {
		t.Errorf("want a complete listing naming the run's page alone, got %+v", s.list)
	}
	paged := rulestest.Send(t, rulestest.OK(`[{"key":"`+ours+`"}]`),
		client.Request{Path: "/api/pages", Query: map[string][]string{"numberOfItems": {"5"}}})
	if s, _ := Read(paged, runID, "/api/", WholeBody); s.list != nil {
		t.Error("a page of 5 items is no complete listing")
	}
}

func TestReadOfWritesAndTerms(t *testing.T) {
	created := rulestest.Send(t, rulestest.Reply{Status: http.StatusCreated, Body: `{"status":"0","message":"ok","data":{"key":"` + ours + `"}}`},
		client.Request{Method: http.MethodPost, Path: "/api/pages"})
	s, ok := Read(created, runID, "/api/", WholeBody)
	if !ok || s.write == nil || s.write.newKey != ours || !s.write.answered || len(s.pages) != 1 {
		t.Fatalf("a create's answer: got %+v", s)
	}
	tag := rulestest.Send(t, rulestest.OK(`{"key":"news","list":["`+ours+`","home"],"pages":[]}`), client.Request{Path: "/api/tags/news"})
	s, _ = Read(tag, runID, "/api/", WholeBody)
	if len(s.terms) != 1 || s.terms[0].term != "news" || !s.terms[0].names[ours] || len(s.terms[0].names) != 1 {
		t.Errorf("a tag's view: got %+v", s.terms)
	}
	gone := rulestest.Send(t, rulestest.Reply{Status: http.StatusNotFound, Body: `{"status":"1","message":"not found"}`},
		client.Request{Path: "/api/pages/" + ours})
	if s, _ := Read(gone, runID, "/api/", WholeBody); s.single == nil || !s.single.gone {
		t.Errorf("a 404 of the run's key: got %+v", s.single)
	}
}

func TestRecorderStartsAtTheFirstPageWrite(t *testing.T) {
	r := NewRecorder(runID, "/api/", WholeBody)
	read := rulestest.Send(t, rulestest.OK(`{"key":"`+ours+`"}`), client.Request{Path: "/api/pages/" + ours})
	r.Record(read)
	if len(r.seen) != 0 {
		t.Fatal("a read before any write of a page was kept")
	}
	r.Record(rulestest.Send(t, rulestest.Reply{Status: http.StatusCreated, Body: `{"status":"0","message":"ok","data":{"key":"` + ours + `"}}`},
		client.Request{Method: http.MethodPost, Path: "/api/pages"}))
	r.Record(read)
	if len(r.seen) != 2 {
		t.Errorf("kept %d answers after the first write, want 2", len(r.seen))
	}
}
