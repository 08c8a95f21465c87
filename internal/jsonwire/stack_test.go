package jsonwire_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/go-json-experiment/json/jsontext"
)

// TestStackPointer reads random documents with jsontext, mirroring each
// token on a Stack, and checks after every token that the Stack's pointer
// of the value read last is jsontext's, and that Named gives the keys to
// the pointer of a jsontext that read the same document with every key
// replaced by "" (what jsontoken hands it).
func TestStackPointer(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		doc := randomJSON(rng, 4)
		real := jsontext.NewDecoder(strings.NewReader(doc))
		standIn := jsontext.NewDecoder(strings.NewReader(standInKeys(t, doc)), jsontext.AllowDuplicateNames(true))
		var s jsonwire.Stack
		var open [][]byte // the current key of each open object, outermost first
		var objs []bool   // whether each open container is an object
		name := func(k int) []byte { return open[k] }
		for {
			tok, err := real.ReadToken()
			if err != nil {
				break
			}
			if _, err := standIn.ReadToken(); err != nil {
				t.Fatalf("%s: stand-in document: %v", doc, err)
			}
			switch k := tok.Kind(); {
			case k == '{' || k == '[':
				s.Push(k == '{')
				objs = append(objs, k == '{')
				if k == '{' {
					open = append(open, nil)
				}
			case k == '}' || k == ']':
				s.Pop()
				if objs[len(objs)-1] {
					open = open[:len(open)-1]
				}
				objs = objs[:len(objs)-1]
			default:
				if obj, n, ok := s.Top(); ok && obj && n%2 == 0 {
					open[len(open)-1] = []byte(tok.String())
				}
				s.Count()
			}
			want := real.StackPointer()
			if got := s.Pointer(-1, name); got != want {
				t.Fatalf("%s, after %v: Pointer %q, jsontext %q", doc, tok, got, want)
			}
			if got := s.Named(standIn.StackPointer(), name); got != want {
				t.Fatalf("%s, after %v: Named %q, jsontext %q", doc, tok, got, want)
			}
		}
		if s.Depth() != 0 {
			t.Fatalf("%s: depth %d at the end", doc, s.Depth())
		}
	}
}

// randomJSON returns a random JSON value nested at most depth deep, with
// keys that a pointer must escape.
func randomJSON(rng *rand.Rand, depth int) string {
	keys := []string{"a", "", "~", "/", "a/b~c", "é", "0", "1"}
	switch r := rng.IntN(6); {
	case depth > 0 && r == 0:
		var b strings.Builder
		b.WriteByte('{')
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", keys[rng.IntN(len(keys))]+fmt.Sprint(i), randomJSON(rng, depth-1))
		}
		b.WriteByte('}')
		return b.String()
	case depth > 0 && r == 1:
		var b strings.Builder
		b.WriteByte('[')
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(randomJSON(rng, depth-1))
		}
		b.WriteByte(']')
		return b.String()
	case r == 2:
		return `"s"`
	}
	return "12"
}

// standInKeys returns doc with every object key replaced by "".
func standInKeys(t *testing.T, doc string) string {
	dec := jsontext.NewDecoder(strings.NewReader(doc))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, jsontext.AllowDuplicateNames(true))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		if k := dec.StackIndex; tok.Kind() == '"' {
			if kind, n := k(dec.StackDepth()); kind == '{' && n%2 == 1 {
				tok = jsontext.String("")
			}
		}
		if err := enc.WriteToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}
