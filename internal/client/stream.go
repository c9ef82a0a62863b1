package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// A listing of a big site is larger than any answer the client keeps
// whole (Config.MaxBody): thousands of page objects of a few KB each. A
// request with a Stream reads its answer as it arrives instead: the array
// at Stream.Path goes item by item to a Fold, which keeps what the checks
// need of each (keys, counts, a slim copy), and only the rest of the
// envelope is kept (the exchange's skeleton). Memory then follows what the
// fold keeps, not the answer's size, and a legitimate answer of any size is
// read whole: a bound applies to each item (MaxBody) and to the whole
// answer (MaxStream), so a hostile answer still costs bounded memory.
//
// The reader is the standard library's encoding/json Decoder: its Token
// walks the envelope, and each item of the array is decoded as a
// json.RawMessage, which the decoder checks as JSON before the fold sees
// it. It is well kept, has no dependency, and its per-token cost falls
// only on the envelope (an item is decoded as one value). The faster
// jsontext of json/v2 is still an experiment of the toolchain
// (GOEXPERIMENT=jsonv2), and its module is not among those served here.

// Stream asks for the array at Path of a JSON answer to be read item by
// item (see above). Only GET requests stream.
type Stream struct {
	// Path is the dotted path of the array: "data", "data.pages".
	Path string
	// Name, when set, lets the run's read cache (Config.ReadCache) answer
	// an identical streamed read with the value the first one's fold made
	// (Exchange.Folded): reads that name the same fold keep the same
	// things.
	Name string
	// New returns an empty fold for one answer (a read retried after
	// 429/503 starts a new one).
	New func() Fold
}

// Fold keeps what a streamed read's checks need of each item. A fold that
// also has a Full() bool method that reports true stops the read there: the
// answer is then cut at a bound (Exchange.Truncated).
type Fold interface {
	// Item is called with each item of the array, in order; raw is one
	// complete JSON value, valid during the call only.
	Item(raw []byte)
	// Value is what the fold kept, once the answer has been read, and
	// about how many bytes it holds (the read cache's bound).
	Value() (any, int64)
}

// Streamed says what a streamed read found at its path.
type Streamed struct {
	Path  string
	Items int // items handed to the fold
	// Full: the fold kept no more (Fold's Full), so the rest of the answer
	// was not read; the exchange is Truncated, and Folded is what the fold
	// kept (the read cache keeps it: the same answer would stop there too).
	Full bool
}

// DefaultMaxStream bounds a streamed answer (Config.MaxStream): far more
// than the listing of a 50,000-page site, far less than a disk.
const DefaultMaxStream = 1 << 30

// errStreamBound is why a streamed read stopped: an item or the whole
// answer passed its bound (the exchange is then Truncated).
var errStreamBound = errors.New("stream bound")

// streamed is what reading one streamed answer brought.
type streamed struct {
	skeleton []byte // the envelope, the streamed array empty; nil when not one JSON document
	raw      []byte // the start of the body as received (the excerpt's source, and the body of a non-JSON answer)
	size     int
	valid    bool // one complete JSON document in UTF-8
	bound    bool // an item or the whole answer passed its bound
	info     *Streamed
	value    any
	weight   int64
	err      error // a transport error while reading
}

// streamReader counts, checks and keeps the start of what the decoder
// reads, and stops it at the bounds.
type streamReader struct {
	r        io.Reader
	n        int64 // bytes read
	max      int64 // the whole answer's bound
	itemMax  int64 // one value's bound, from mark
	mark     int64 // where the value being decoded starts (-1: no value bound)
	keep     int   // how much of the start to keep in raw
	head     int   // what is kept once the answer is known to stream (the excerpt's bytes)
	raw      []byte
	utf8Tail []byte // an incomplete rune at the end of the last read
	badUTF8  bool
	err      error // the transport's error, not the decoder's
	bounded  bool
	full     bool // the fold kept no more
}

func (s *streamReader) Read(p []byte) (int, error) {
	if s.n >= s.max || (s.mark >= 0 && s.n-s.mark > s.itemMax) {
		s.bounded = true
		return 0, errStreamBound
	}
	n, err := s.r.Read(p)
	if n > 0 {
		s.n += int64(n)
		if len(s.raw) < s.keep {
			s.raw = append(s.raw, p[:min(n, s.keep-len(s.raw))]...)
		}
		s.checkUTF8(p[:n])
	}
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

// checkUTF8 validates the bytes read so far, a chunk at a time.
func (s *streamReader) checkUTF8(b []byte) {
	if s.badUTF8 {
		return
	}
	if len(s.utf8Tail) > 0 {
		b = append(s.utf8Tail, b...)
		s.utf8Tail = nil
	}
	// Keep back an incomplete rune at the end for the next chunk.
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	if !utf8.Valid(b[:cut]) {
		s.badUTF8 = true
		return
	}
	s.utf8Tail = append([]byte(nil), b[cut:]...)
}

// streaming is called when the array starts: the answer is JSON so far,
// so of its start only the excerpt's bytes are kept from now on (a body
// that is no JSON document is kept up to the item bound, as a body that is
// not streamed would be).
func (s *streamReader) streaming() {
	if s.keep > s.head {
		s.keep = s.head
		if len(s.raw) > s.head {
			s.raw = append([]byte(nil), s.raw[:s.head]...)
		}
	}
}

// readStreamed reads body as st asks, within maxItem per value and
// maxTotal in all, keeping head bytes of its start (and up to maxItem of
// an answer that is no JSON document, unless its announced length, -1
// when unknown, is already more: read whole it would be cut to its start).
func readStreamed(body io.Reader, st *Stream, maxItem, maxTotal int64, head int, announced int64) *streamed {
	keep := int(min(maxItem+1, maxTotal))
	if announced > maxItem {
		keep = min(keep, head)
	}
	sr := &streamReader{r: body, max: maxTotal, itemMax: maxItem, mark: -1, keep: keep, head: head}
	dec := json.NewDecoder(sr)
	dec.UseNumber()
	fold := st.New()
	out := &streamed{info: &Streamed{Path: st.Path}}
	var skel bytes.Buffer
	path := strings.Split(st.Path, ".")
	err := streamObject(dec, sr, path, fold, out.info, &skel, true)
	if errors.Is(err, errNotStreamable) {
		return readWhole(sr, fold, out, maxItem)
	}
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	out.size, out.raw, out.bound, out.err = int(sr.n), sr.raw, sr.bounded, sr.err
	if err != nil && !sr.bounded && sr.err == nil {
		// Read to the end: the size is the answer's, and a body that
		// is no JSON document keeps its start as the body.
		sr.mark = -1
		_, _ = io.Copy(io.Discard, sr)
		out.size, out.raw, out.bound, out.err = int(sr.n), sr.raw, sr.bounded, sr.err
	}
	out.valid = err == nil && !sr.badUTF8 && !sr.bounded && sr.err == nil && len(sr.utf8Tail) == 0
	if out.valid || sr.full {
		out.value, out.weight = fold.Value()
	}
	if out.valid {
		out.skeleton = skel.Bytes()
	}
	return out
}

// errNotStreamable: the answer has not the shape the stream asked for (no
// object, or the member on the path of another kind).
var errNotStreamable = errors.New("not the shape streamed")

// readWhole finishes a streamed read whose answer has not the shape
// streamed as a body read whole: up to maxItem bytes (kept from the start,
// raw), its JSON judged whole; a larger one is cut. The fold saw nothing.
func readWhole(sr *streamReader, fold Fold, out *streamed, maxItem int64) *streamed {
	sr.mark = -1
	if left := maxItem + 1 - sr.n; left > 0 {
		_, _ = io.Copy(io.Discard, io.LimitReader(sr, left))
	}
	out.size, out.raw, out.err = int(sr.n), sr.raw, sr.err
	if sr.n > maxItem || sr.bounded {
		out.bound = true
		return out
	}
	out.valid = sr.err == nil && !sr.badUTF8 && len(sr.utf8Tail) == 0 && json.Valid(sr.raw)
	if out.valid {
		out.skeleton = sr.raw
		out.value, out.weight = fold.Value()
	}
	return out
}

// streamObject reads a JSON object whose members are copied to skel, but
// for the one named path[0], which is streamed (the last of path) or read
// the same way (an object on the way to it). top: the whole answer, whose
// first token is read here.
func streamObject(dec *json.Decoder, sr *streamReader, path []string, fold Fold, info *Streamed, skel *bytes.Buffer, top bool) error {
	if top {
		tok, err := boundedToken(dec, sr)
		if err != nil {
			return err
		}
		if tok != json.Delim('{') {
			return errNotStreamable // not an object: nothing to stream
		}
	}
	skel.WriteByte('{')
	for first := true; dec.More(); first = false {
		if skel.Len() > int(sr.itemMax) {
			// The envelope alone passed the bound of one value.
			sr.bounded = true
			return errStreamBound
		}
		tok, err := boundedToken(dec, sr)
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		if !first {
			skel.WriteByte(',')
		}
		writeJSON(skel, name)
		skel.WriteByte(':')
		val, err := boundedToken(dec, sr)
		if err != nil {
			return err
		}
		switch {
		case name == path[0] && len(path) == 1 && val == json.Delim('['):
			skel.WriteString("[]")
			sr.streaming()
			var raw json.RawMessage // reused: an item is valid during Fold.Item only
			for dec.More() {
				sr.mark = dec.InputOffset()
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				sr.mark = -1
				fold.Item(raw)
				info.Items++
				if f, ok := fold.(interface{ Full() bool }); ok && f.Full() {
					// The fold keeps no more: the rest is not read.
					sr.bounded, sr.full, info.Full = true, true, true
					return errStreamBound
				}
			}
			if _, err := dec.Token(); err != nil { // ']'
				return err
			}
		case name == path[0] && len(path) > 1 && val == json.Delim('{'):
			if err := streamObject(dec, sr, path[1:], fold, info, skel, false); err != nil {
				return err
			}
		case name == path[0]:
			// The member streamed is of another kind: the answer is read
			// as a body read whole is (a token at a time would cost a
			// garbage value per token of it).
			return errNotStreamable
		default:
			if err := copyValue(dec, sr, val, skel); err != nil {
				return err
			}
		}
	}
	_, err := dec.Token() // '}'
	skel.WriteByte('}')
	return err
}

// boundedToken reads the next token within the bound of one value (a
// member's name or a scalar of the envelope is one), unless a value being
// read already bounds it.
func boundedToken(dec *json.Decoder, sr *streamReader) (json.Token, error) {
	if sr.mark >= 0 {
		return dec.Token()
	}
	sr.mark = dec.InputOffset()
	defer func() { sr.mark = -1 }()
	return dec.Token()
}

// copyValue writes the value that starts with tok to skel, within the
// bound of one value.
func copyValue(dec *json.Decoder, sr *streamReader, tok json.Token, skel *bytes.Buffer) error {
	d, ok := tok.(json.Delim)
	if !ok {
		writeJSON(skel, tok)
		return nil
	}
	if sr.mark < 0 {
		sr.mark = dec.InputOffset()
		defer func() { sr.mark = -1 }()
	}
	skel.WriteRune(rune(d))
	for first := true; dec.More(); first = false {
		if !first {
			skel.WriteByte(',')
		}
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d == '{' {
			writeJSON(skel, t)
			skel.WriteByte(':')
			if t, err = dec.Token(); err != nil {
				return err
			}
		}
		if err := copyValue(dec, sr, t, skel); err != nil {
			return err
		}
	}
	end, err := dec.Token()
	if err != nil {
		return err
	}
	skel.WriteRune(rune(end.(json.Delim)))
	if skel.Len() > int(sr.itemMax) {
		sr.bounded = true
		return errStreamBound
	}
	return nil
}

// writeJSON writes a scalar token as JSON.
func writeJSON(b *bytes.Buffer, v any) {
	if v == nil {
		b.WriteString("null")
		return
	}
	if n, ok := v.(json.Number); ok {
		b.WriteString(n.String())
		return
	}
	out, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(b, "%q", fmt.Sprint(v))
		return
	}
	b.Write(out)
}

// readStream reads a streamed answer into t: its skeleton (or, when it is
// no JSON document, its start) as the body, cut like any body when it
// passed a bound.
func (c *Client) readStream(t *try, body io.Reader, announced int64, st *Stream, keys bool) {
	if keys {
		inner := st
		st = &Stream{Path: inner.Path, Name: inner.Name, New: func() Fold { return &keyFold{Fold: inner.New(), keys: &t.keys} }}
	}
	s := readStreamed(body, st, c.cfg.MaxBody, c.cfg.MaxStream, responseExcerpt+redactSlack, announced)
	t.streamed, t.size, t.truncated = s, s.size, s.bound
	t.body = s.skeleton
	if !s.valid && s.info.Items == 0 {
		t.body = s.raw
	}
	if int64(len(t.body)) > c.cfg.MaxBody {
		t.truncated = true
	}
	if t.truncated {
		// Cut: the exchange keeps the start as received, never a body
		// that passed the bound (setStreamed reads s).
		s.raw = append([]byte(nil), s.raw[:min(len(s.raw), responseExcerpt+redactSlack)]...)
		s.skeleton, s.valid = nil, false
		t.body = nil
	}
}

// keyFold passes every item on to Fold and keeps its key member.
type keyFold struct {
	Fold
	keys *[]string
}

func (k *keyFold) Item(raw []byte) {
	*k.keys = append(*k.keys, gjson.GetBytes(raw, "key").String())
	k.Fold.Item(raw)
}

// Full is the wrapped fold's (a fold that keeps no more stops the read
// whatever wraps it).
func (k *keyFold) Full() bool {
	f, ok := k.Fold.(interface{ Full() bool })
	return ok && f.Full()
}

// idleReader pushes idle back by d whenever some of the body arrives.
type idleReader struct {
	r    io.Reader
	idle *time.Timer
	d    time.Duration
}

func (r *idleReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.idle.Reset(r.d)
	}
	return n, err
}
