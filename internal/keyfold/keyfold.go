// Package keyfold finds the object keys that a tool runtime would confuse:
// keys equal under Unicode simple case folding, as [bytes.EqualFold] compares
// them and as Go's encoding/json v1 matches keys to struct fields ("key",
// "KEY" and "\u212aey", with the Kelvin sign, are one key to such a tool),
// and keys holding U+0000, where a tool written in C stops reading. Both
// argstream tokenizers use it, through [Set.Check], unless given
// token.WithConfusableKeys(true); the hand-written baseline also finds
// exact duplicates with it, in the exact mode (SetExact), when given
// token.WithConfusableKeys(true).
//
// A [Set] holds the keys of the open objects of one document, nested as the
// objects are. Adding a key costs time linear in the key: it is folded once,
// then, while its object holds at most linearKeys keys, compared with each
// of them by length and fingerprint (its first and last eight bytes, the
// whole of a key of 16 bytes or fewer; a longer key is hashed too, and
// compared whole only when the hashes agree); in a larger object it is
// hashed and looked up in a seeded hash table.
package keyfold

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/token"
)

// linearKeys is how many keys an object holds before its keys move to a
// hash table: a new key is compared with at most linearKeys fingerprints.
const linearKeys = 8

// shortKey is the longest fold that a fingerprint holds whole.
const shortKey = 16

// Set holds the keys of the open objects of a document. Its zero value is
// ready to use. A Set may not be used from several goroutines at once.
type Set struct {
	buf     []byte   // the keys of every open object, as given, back to back
	keys    []key    // the keys in buf, object by object
	objs    []object // the open objects, outermost first
	tables  []table  // the hash tables of the open objects with many keys, innermost last, and spares
	ntables int      // tables in use
	folded  []byte   // scratch: the key being added, folded
	seed    maphash.Seed
	work    int64
	exact   bool // keys are compared exactly, not under folding (SetExact)
}

// key is one key in Set.buf, with the fingerprint of its folded form and,
// once computed, its hash.
type key struct {
	start, end int
	fp         fingerprint
	hash       uint64 // of the fold: for keys longer than shortKey and in hash tables
}

// fingerprint is the length of a fold and its first and last eight bytes
// (little-endian words; a fold shorter than eight bytes is in head alone,
// padded with zeros): two folds of at most shortKey bytes are equal exactly
// when their fingerprints are.
type fingerprint struct {
	n          int
	head, tail uint64
}

func fingerprintOf(f []byte) fingerprint {
	if len(f) >= 8 {
		return fingerprint{len(f), binary.LittleEndian.Uint64(f), binary.LittleEndian.Uint64(f[len(f)-8:])}
	}
	var head uint64
	for i := len(f) - 1; i >= 0; i-- {
		head = head<<8 | uint64(f[i])
	}
	return fingerprint{n: len(f), head: head}
}

// object is an open object.
type object struct {
	first int   // index in Set.keys of its first key
	table int32 // 1 + index in Set.tables of its hash table, or 0
}

// table is an open-addressing hash table of one object's keys. A slot holds
// 1 + the key's index among the object's keys, or 0 when empty. It is at
// least twice as large as the keys it holds.
type table struct {
	slots []uint32
}

// Reset empties s, keeping its memory.
func (s *Set) Reset() {
	for i := range s.ntables {
		clear(s.tables[i].slots)
	}
	*s = Set{buf: s.buf[:0], keys: s.keys[:0], objs: s.objs[:0], tables: s.tables,
		folded: s.folded[:0], seed: s.seed, exact: s.exact}
}

// SetExact sets the exact mode: keys are compared exactly, not under case
// folding, and [Set.Check] accepts NUL, so that it reports only
// [token.ErrDuplicateKey] (what a tokenizer needs under
// token.WithConfusableKeys(true)). [Set.Reset] keeps the mode. Set it on an
// empty Set.
func (s *Set) SetExact(exact bool) { s.exact = exact }

// Open starts a new object, nested in the one open before.
func (s *Set) Open() {
	s.objs = append(s.objs, object{first: len(s.keys)})
}

// Close ends the innermost open object and forgets its keys.
func (s *Set) Close() {
	o := s.objs[len(s.objs)-1]
	s.objs = s.objs[:len(s.objs)-1]
	if o.first < len(s.keys) {
		s.buf = s.buf[:s.keys[o.first].start]
		s.keys = s.keys[:o.first]
	}
	if o.table != 0 {
		s.work += int64(len(s.tables[o.table-1].slots))
		clear(s.tables[o.table-1].slots)
		s.ntables--
	}
}

// Check adds k, a decoded object key whose first byte (its opening quote)
// is at offset off in the stream, to the keys of the innermost open object,
// or returns why it is rejected: [token.ErrNULInKey] if it holds U+0000,
// [token.ErrCaseFoldedKey] if an earlier key of the object differs from it but
// is equal to it under case folding, [token.ErrDuplicateKey] if one is equal
// to it exactly (a tokenizer that finds exact duplicates on its own finds
// them first).
func (s *Set) Check(k []byte, off int64) *jsonwire.Error {
	if !s.exact && bytes.IndexByte(k, 0) >= 0 {
		return &jsonwire.Error{Offset: off, Err: token.ErrNULInKey,
			Detail: "object key " + strconv.Quote(string(k)) + " contains NUL (U+0000)"}
	}
	earlier, ok := s.Add(k)
	switch {
	case ok:
		return nil
	case bytes.Equal(earlier, k):
		return &jsonwire.Error{Offset: off, Err: token.ErrDuplicateKey,
			Detail: "duplicate object key " + strconv.Quote(string(k))}
	}
	return &jsonwire.Error{Offset: off, Err: token.ErrCaseFoldedKey,
		Detail: "key " + strconv.Quote(string(k)) + " equals " + strconv.Quote(string(earlier)) + " under case folding"}
}

// Add adds k to the keys of the innermost open object, unless one of them
// is equal to k under simple case folding ([bytes.EqualFold]), or exactly in
// the exact mode: then it returns that key, which may be k exactly, and
// false. Once no two keys of
// an object are equal so, at most one is equal to k. The key returned is
// valid until the next call.
func (s *Set) Add(k []byte) (earlier []byte, ok bool) {
	s.work += int64(len(k))
	o := &s.objs[len(s.objs)-1]
	if o.table == 0 && len(s.keys)-o.first >= linearKeys {
		s.hashKeys(o)
	}
	f := s.fold(k)
	fp := fingerprintOf(f)
	var h uint64
	if o.table == 0 {
		long := len(f) > shortKey
		if long {
			h = s.hash(f)
		}
		for _, e := range s.keys[o.first:] {
			s.work++
			if e.fp == fp && (!long || e.hash == h && s.equal(s.buf[e.start:e.end], k)) {
				return s.buf[e.start:e.end], false
			}
		}
		s.push(k, fp, h)
		return nil, true
	}
	h = s.hash(f)
	t := &s.tables[o.table-1]
	if e, found := s.insert(o, t, k, h, uint32(len(s.keys)-o.first), true); found {
		return s.buf[e.start:e.end], false
	}
	s.push(k, fp, h)
	if n := len(s.keys) - o.first; 2*n > len(t.slots) {
		s.rehash(o, t, 2*len(t.slots))
	}
	return nil, true
}

// Last returns the latest key added to the obj-th open object, counting
// from the outermost (0), or nil if it has none. It is valid until the
// object is closed.
func (s *Set) Last(obj int) []byte {
	end := len(s.keys)
	if obj+1 < len(s.objs) {
		end = s.objs[obj+1].first
	}
	if end == s.objs[obj].first {
		return nil
	}
	e := s.keys[end-1]
	return s.buf[e.start:e.end:e.end]
}

// hash returns the seeded hash of f, a fold.
func (s *Set) hash(f []byte) uint64 {
	if s.seed == (maphash.Seed{}) {
		s.seed = maphash.MakeSeed()
	}
	return maphash.Bytes(s.seed, f)
}

// Work returns the units of work done so far (bytes folded, keys
// compared, table slots probed and cleared), for tests of linearity.
func (s *Set) Work() int64 { return s.work }

func (s *Set) push(k []byte, fp fingerprint, h uint64) {
	start := len(s.buf)
	s.buf = append(s.buf, k...)
	s.keys = append(s.keys, key{start, len(s.buf), fp, h})
}

// hashKeys gives the object o a hash table holding its keys, hashing those
// that are not yet: the short ones, at most shortKey bytes each.
func (s *Set) hashKeys(o *object) {
	for i := range s.keys[o.first:] {
		if e := &s.keys[o.first+i]; e.fp.n <= shortKey {
			s.work += int64(e.fp.n)
			e.hash = s.hash(s.fold(s.buf[e.start:e.end]))
		}
	}
	if s.ntables == len(s.tables) {
		s.tables = append(s.tables, table{})
	}
	s.ntables++
	o.table = int32(s.ntables)
	s.rehash(o, &s.tables[s.ntables-1], 4*linearKeys)
}

// rehash sizes t to size slots (a power of two) and inserts o's keys.
func (s *Set) rehash(o *object, t *table, size int) {
	if cap(t.slots) >= size {
		t.slots = t.slots[:size]
		clear(t.slots)
	} else {
		t.slots = make([]uint32, size)
	}
	s.work += int64(size)
	for i, e := range s.keys[o.first:] {
		s.insert(o, t, nil, e.hash, uint32(i), false)
	}
}

// insert puts the object's key number i, k of hash h, in t, unless check
// and t holds a key equal to k under folding: then it returns that key and
// true.
func (s *Set) insert(o *object, t *table, k []byte, h uint64, i uint32, check bool) (key, bool) {
	mask := uint64(len(t.slots) - 1)
	for p := h & mask; ; p = (p + 1) & mask {
		s.work++
		v := t.slots[p]
		if v == 0 {
			t.slots[p] = i + 1
			return key{}, false
		}
		if e := s.keys[o.first+int(v-1)]; check && e.hash == h && s.equal(s.buf[e.start:e.end], k) {
			return e, true
		}
	}
}

// equal reports whether two keys are one: equal under folding, or exactly
// in the exact mode.
func (s *Set) equal(a, b []byte) bool {
	if s.exact {
		return bytes.Equal(a, b)
	}
	return bytes.EqualFold(a, b)
}

// fold returns appendFold(nil, k), in s.folded, or k itself if it is its own
// fold: lower case ASCII, as most keys are. In the exact mode it returns k.
func (s *Set) fold(k []byte) []byte {
	if s.exact {
		return k
	}
	for i, c := range k {
		if 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf {
			s.folded = appendFold(append(s.folded[:0], k[:i]...), k[i:])
			return s.folded
		}
	}
	return k
}

// appendFold appends k with every rune replaced by the rune that stands for
// its [unicode.SimpleFold] orbit (see foldRune): two keys are equal under
// [bytes.EqualFold] exactly when their folds are equal. (Bytes that are not
// UTF-8 fold to U+FFFD, as bytes.EqualFold decodes them.)
func appendFold(dst, k []byte) []byte {
	for i := 0; i < len(k); {
		c := k[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(k[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += n
	}
	return dst
}

// foldRune returns the rune that stands for every rune equal to r under
// simple case folding, one rune of r's [unicode.SimpleFold] orbit: the
// smallest, but for an orbit with ASCII letters its lower case letter ('k'
// for 'K' and for the Kelvin sign U+212A), so that lower case ASCII is its
// own fold.
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	if 'A' <= m && m <= 'Z' {
		m += 'a' - 'A'
	}
	return m
}
