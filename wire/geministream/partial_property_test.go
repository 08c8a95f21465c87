package geministream

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

// partialLeaf is one value of generated arguments, as Vertex AI streams
// it: its jsonPath and its JSON text.
type partialLeaf struct {
	path  string
	value jsontext.Value
}

// leavesOf walks doc, a JSON object, in document order and returns its
// values with their jsonPaths; ok is false if doc holds an empty object or
// array, which no partialArg can stream.
func leavesOf(doc []byte) (leaves []partialLeaf, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	type level struct {
		path  string
		array bool
		n     int
	}
	var stack []level
	for {
		k := dec.PeekKind()
		if k == 0 {
			return leaves, true
		}
		if k == '}' || k == ']' {
			if _, err := dec.ReadToken(); err != nil {
				panic(err)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		path := "$"
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.array {
				path = top.path + "[" + strconv.Itoa(top.n) + "]"
			} else {
				name, err := dec.ReadToken() // the member's name
				if err != nil {
					panic(err)
				}
				path = top.path + "[" + string(mustQuote(name.String())) + "]"
			}
			top.n++
		}
		switch k := dec.PeekKind(); k {
		case '{', '[':
			if _, err := dec.ReadToken(); err != nil {
				panic(err)
			}
			if next := dec.PeekKind(); next == '}' || next == ']' {
				return nil, false
			}
			stack = append(stack, level{path: path, array: k == '['})
		default:
			v, err := dec.ReadValue()
			if err != nil {
				panic(err)
			}
			leaves = append(leaves, partialLeaf{path, v.Clone()})
		}
	}
}

// partialArgs writes leaves as the partialArgs of Vertex AI: a string
// split at random rune boundaries over several, each but the last with
// willContinue.
func partialArgs(leaves []partialLeaf, rng *rand.Rand) []string {
	var out []string
	for _, l := range leaves {
		path := `{"jsonPath":` + string(mustQuote(l.path))
		switch l.value.Kind() {
		case '"':
			var s string
			if err := jsontextUnquote(l.value, &s); err != nil {
				panic(err)
			}
			pieces := splitRunes(s, rng)
			for i, p := range pieces {
				more := ""
				if i < len(pieces)-1 {
					more = `,"willContinue":true`
				}
				out = append(out, path+`,"stringValue":`+string(mustQuote(p))+more+`}`)
			}
		case '0':
			out = append(out, path+`,"numberValue":`+string(l.value)+`}`)
		case 't', 'f':
			out = append(out, path+`,"boolValue":`+string(l.value)+`}`)
		case 'n':
			out = append(out, path+`,"nullValue":"NULL_VALUE"}`)
		}
	}
	return out
}

func mustQuote(s string) []byte {
	q, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		panic(err)
	}
	return q
}

func jsontextUnquote(v jsontext.Value, s *string) error {
	b, err := jsontext.AppendUnquote(nil, v)
	*s = string(b)
	return err
}

// splitRunes cuts s into 1 to 3 pieces at rune boundaries ("" is one
// piece).
func splitRunes(s string, rng *rand.Rand) []string {
	var out []string
	for n := rng.IntN(3); n > 0 && len(s) > 0; n-- {
		i := rng.IntN(len(s) + 1)
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++
		}
		out, s = append(out, s[:i]), s[i:]
	}
	return append(out, s)
}

// streamPartial encodes calls streamed as Vertex AI streams them: for each,
// a first part with its name (and an id, one time in two) and
// willContinue, then its partialArgs, one to three a part, then an empty
// functionCall, or the last part of values without willContinue; the
// parts one to three an event, framed at random.
func streamPartial(calls [][]string, rng *rand.Rand) []byte {
	var events []wiretest.SSEEvent
	var parts []string
	flush := func(finish bool) {
		fr := ""
		if finish {
			fr = `,"finishReason":"STOP"`
		}
		events = append(events, wiretest.SSEEvent{Data: `{"candidates":[{"content":{"role":"model","parts":[` +
			strings.Join(parts, ",") + `]}` + fr + `}]}`})
		parts = parts[:0]
	}
	add := func(p string) {
		parts = append(parts, p)
		if rng.IntN(2) == 0 {
			flush(false)
		}
	}
	for i, args := range calls {
		id := ""
		if rng.IntN(2) == 0 {
			id = `"id":"call_` + strconv.Itoa(i) + `",`
		}
		add(`{"functionCall":{` + id + `"name":"tool` + strconv.Itoa(i) + `","willContinue":true}}`)
		lastInPart := rng.IntN(2) == 0 && len(args) > 0
		for len(args) > 0 {
			n := min(1+rng.IntN(3), len(args))
			more := `,"willContinue":true`
			if lastInPart && n == len(args) {
				more = ""
			}
			add(`{"functionCall":{"partialArgs":[` + strings.Join(args[:n], ",") + `]` + more + `}}`)
			args = args[n:]
		}
		if !lastInPart {
			add(`{"functionCall":{}}`)
		}
	}
	flush(true)
	return wiretest.FrameSSE(events, false, rng)
}

// TestPropertyPartialArgs: generated arguments streamed as Vertex AI's
// partialArgs, their strings cut at random, their parts spread over
// events at random, come back whole, the JSON text of each call the
// generated document, read whole or in reads of random sizes.
func TestPropertyPartialArgs(t *testing.T) {
	resp := toolcall.New()
	tried := 0
	wiretest.PlanProperty(t, "partialArgs come back whole",
		func(docs []testutil.Doc, seed uint64, _ int) string {
			rng := newRand(seed)
			var calls [][]string
			var want []wiretest.CallOutcome
			for _, d := range docs {
				leaves, ok := leavesOf(d.Text)
				if !ok {
					continue // an empty container: no partialArg streams one
				}
				canon, err := testutil.Canonical(d.Text)
				if err != nil {
					return err.Error()
				}
				want = append(want, outcome(int64(len(calls)), "", "tool"+strconv.Itoa(len(calls)), string(canon)))
				calls = append(calls, partialArgs(leaves, rng))
			}
			if len(calls) == 0 {
				return ""
			}
			tried++
			s := streamPartial(calls, rng)
			got := geminiAdapter.Run(resp, bytes.NewReader(s))
			for i := range got.Calls {
				got.Calls[i].ID = "" // one time in two
			}
			if got.Err != nil {
				return fmt.Sprintf("Read = %v\n%s", got.Err, s)
			}
			if diff := cmp.Diff(want, got.Calls); diff != "" {
				return fmt.Sprintf("(-want +got):\n%s\n%s", diff, s)
			}
			split := geminiAdapter.Run(resp, wiretest.RandomReads(bytes.NewReader(s), seed, 64))
			for i := range split.Calls {
				split.Calls[i].ID = ""
			}
			if diff := cmp.Diff(got, split, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
				return fmt.Sprintf("split reads (-whole +split):\n%s", diff)
			}
			return ""
		})
	if tried < 100 {
		t.Errorf("only %d of the generated responses had arguments that partialArgs can stream", tried)
	}
}
