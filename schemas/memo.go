package schemas

import (
	"crypto/sha256"
	"slices"
	"sync"
)

// A run validates the same answer several times: for each spec that reads
// it, and for the check of the shape of every answer of the run; the items
// of a big list, once for each list that holds them. A read-only run
// against the reference validated 91 documents 205 times, and validating
// (the validator decodes the whole document each time) was near a tenth
// of its CPU. So the outcome of messages is remembered, by schema and the
// document's SHA-256, for the documents validated lately. It is the
// outcome of a pure function: remembering it changes no verdict.

// memoSize bounds the outcomes remembered (a few hundred bytes each): a
// run against the reference validates under two hundred distinct
// documents, one against a site of 10,000 pages tens of thousands of
// items, which need not all be remembered.
const memoSize = 4096

type memoKey struct {
	schema string
	sum    [sha256.Size]byte
}

type memoOutcome struct {
	msgs []message
	err  error
}

// outcomes holds the outcomes remembered; it forgets them all when full.
var outcomes = struct {
	sync.Mutex
	m map[memoKey]memoOutcome
}{m: map[memoKey]memoOutcome{}}

// remembered is messages(name, document), validated once for the same
// schema and document. Each caller gets a copy of its own (callers sort
// and extend what they get).
func remembered(name string, document []byte) ([]message, error) {
	key := memoKey{schema: name, sum: sha256.Sum256(document)}
	outcomes.Lock()
	o, ok := outcomes.m[key]
	outcomes.Unlock()
	if !ok {
		o.msgs, o.err = messages(name, document)
		outcomes.Lock()
		if len(outcomes.m) >= memoSize {
			clear(outcomes.m)
		}
		outcomes.m[key] = o
		outcomes.Unlock()
	}
	return slices.Clone(o.msgs), o.err
}
