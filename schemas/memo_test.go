package schemas

import (
	"slices"
	"testing"
)

// A document validated again against the same schema is not validated
// again (remembered): the validator's decoding alone allocates hundreds of
// objects. The outcome is the same, and each caller gets its own copy.
func TestValidatedOnce(t *testing.T) {
	good := []byte(`{"status":"0","message":"ok","data":[]}`)
	bad := []byte(`{"status":0,"message":"ok","data":[{"key":1}]}`)
	for _, doc := range [][]byte{good, bad} {
		first, err := Violations("tag-list-response.json", doc)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Violations("tag-list-response.json", doc)
		if !slices.Equal(first, again) {
			t.Errorf("validated again: %v, first: %v", again, first)
		}
		if len(again) > 0 {
			again[0].Problem = "changed by a caller"
			if third, _ := Violations("tag-list-response.json", doc); third[0] == again[0] {
				t.Error("a caller's change to what it got reached the next caller")
			}
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = Violations("tag-list-response.json", doc) }); n > 10 {
			t.Errorf("validating a document again allocates %.0f objects, want at most 10: is it validated again?", n)
		}
	}
	if len(must(Violations("tag-list-response.json", bad))) == 0 {
		t.Fatal("the bad document conforms: the test proves nothing")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
