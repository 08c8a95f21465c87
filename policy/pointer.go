package policy

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/argstream/argstream/fragment"
)

// parsePointer splits an RFC 6901 JSON pointer into its decoded tokens. The
// empty pointer (the whole arguments) is refused: a condition is about a
// parameter.
func parsePointer(p string) ([]string, error) {
	switch {
	case p == "":
		return nil, errors.New(`the empty pointer is the whole arguments; name a parameter, such as "/path"`)
	case p[0] != '/':
		return nil, fmt.Errorf("%q is not a JSON pointer: it must start with \"/\" (did you mean %q?)", p, "/"+p)
	case !utf8.ValidString(p):
		return nil, fmt.Errorf("%q is not valid UTF-8", p)
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
			return nil, fmt.Errorf("%q: \"~\" at byte %d must be followed by 0 or 1 (RFC 6901: ~0 is \"~\", ~1 is \"/\")", p, i)
		}
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		// ~1 before ~0, as RFC 6901 says: the other order turns "~01" into "/".
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs, nil
}

// onPointer reports whether path is where a value the pointer segs resolves
// to can be: the keys of path are segs in order, and array indexes may come
// anywhere after the first key, since an array met along the way (or at the
// end) stands for each of its elements. The root must be an object: the
// first step of path is a parameter. memo, nil or one keyRef per token of
// segs, spares comparing a key again (see keyIs).
func onPointer(segs []string, path fragment.Path, memo []keyRef) bool {
	if len(path) == 0 || path[0].IsIndex() {
		return false
	}
	j := 0
	for _, s := range path {
		if s.IsIndex() {
			continue
		}
		if j == len(segs) || !keyIs(memo, j, s.Key, segs[j]) {
			return false
		}
		j++
	}
	return j == len(segs)
}

// pointerPrefix returns the length of the shortest prefix of path that is
// on the pointer segs (see onPointer), or -1 if there is none. The values
// a pointer resolves to within path are at or under that prefix, so it is
// where a consumer starts keeping fragments.
func pointerPrefix(segs []string, path fragment.Path, memo []keyRef) int {
	if len(path) == 0 || path[0].IsIndex() {
		return -1
	}
	j := 0
	for l, s := range path {
		if s.IsIndex() {
			continue
		}
		if j == len(segs) || !keyIs(memo, j, s.Key, segs[j]) {
			return -1
		}
		j++
		if j == len(segs) {
			return l + 1
		}
	}
	return -1
}

// keyRef names a key slice by its first byte's address and its length.
type keyRef struct {
	p *byte
	n int
}

// keyIs reports whether key is seg, the pointer token j. A key slice once
// found equal is remembered in memo[j] (when memo is not nil), and the next
// call with the same slice answers without reading it: the values under a
// long key all carry the same key slice ([fragment.Path]'s keys stay put while
// their member is open), and comparing it at every value would cost time
// quadratic in the key. Whoever keeps a memo must clear it when a
// remembered slice's bytes may change: when an object member ends.
func keyIs(memo []keyRef, j int, key []byte, seg string) bool {
	switch {
	case len(key) != len(seg):
		return false
	case len(key) == 0:
		return true
	case memo != nil && memo[j] == keyRef{&key[0], len(key)}:
		return true
	case string(key) != seg:
		return false
	}
	if memo != nil {
		memo[j] = keyRef{&key[0], len(key)}
	}
	return true
}
