package caret_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/caret"
)

// genTools types some of the parameters genBlock writes, for the typed runs.
var genTools = mustParse(`[{"name": "tool", "input_schema": {"type": "object", "properties": {
  "a": {"type": "number"}, "k": {"type": "array", "items": {"type": "string"}},
  "path": {"type": "string"}, "content": {"type": "string"}, "o": {"type": "object"}},
  "additionalProperties": true}}]`)

// snippets are what genBlock writes values from: text, and the bytes that
// mean something to the grammar or to UTF-8.
var snippets = []string{"a", "src/main.rs", " ", "\t", "é", "😀", "€", "\r", "[", "]", "^^^", "^",
	"--- ", "--- path", "--- content", "---", ":", ": ", "{", "}", `"x"`, "1", "-2.5", "true", "null",
	"\xc3", "\xff", "\xe2\x82"}

// genBlock writes a random caret block from r: most are valid, some have a
// parameter twice, invalid UTF-8 or a marker inside a value.
func genBlock(r *rand.Rand) []byte {
	var b bytes.Buffer
	eol := func() {
		if r.IntN(4) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	text := func() {
		for range r.IntN(6) {
			s := snippets[r.IntN(len(snippets))]
			if s[0] >= 0xc3 && s != "é" && s != "😀" && s != "€" && r.IntN(4) > 0 {
				s = "x" // keep most values valid UTF-8
			}
			b.WriteString(s)
		}
	}
	keys := []string{"path", "content", "a", "b.c", "x-y", "k", "o"}
	b.WriteString("^^^tool")
	eol()
	for range r.IntN(6) {
		key := keys[r.IntN(len(keys))]
		b.WriteString(key)
		switch r.IntN(5) {
		case 0:
			b.WriteString(":")
		case 1:
			b.WriteString(": [")
			eol()
			for range r.IntN(4) {
				if r.IntN(4) > 0 {
					b.WriteString("e")
				}
				text()
				eol()
			}
			b.WriteString("]")
		case 2:
			b.WriteString(" ---")
			eol()
			for range r.IntN(5) {
				text()
				if r.IntN(8) == 0 {
					b.WriteString("--- " + key)
				}
				eol()
			}
			b.WriteString("--- " + key)
		default:
			b.WriteString(": ")
			text()
		}
		eol()
		if r.IntN(6) == 0 {
			eol()
		}
	}
	b.WriteString("^^^")
	if r.IntN(2) == 0 {
		eol()
	}
	return b.Bytes()
}

// mutationBytes change the meaning of a caret block around them.
const mutationBytes = "^-:[] \r\n\tk.\xc3\xff"

// TestPropertyChunking checks that random caret blocks, valid and not, give
// the same outcome (merged fragments, aggregate or error with its offset,
// pointer and message, which holds line and column) in one chunk, in
// random chunks and one byte at a time, with and without a schema; that
// no string piece ends inside a UTF-8 sequence; and that an error's line
// and column are those of its offset.
func TestPropertyChunking(t *testing.T) {
	properties := gopter.NewProperties(testutil.PropertyParameters(500))
	properties.Property("any chunking, same outcome", prop.ForAll(
		func(seed uint64, ms []testutil.Mutation, typed bool) string {
			r := rand.New(rand.NewPCG(seed, 1))
			data := testutil.Mutate(genBlock(r), ms)
			nf := untyped
			if typed {
				nf = caret.Typed(genTools)
			}
			return checkChunking(data, r, nf)
		},
		gen.UInt64(), gen.SliceOfN(2, testutil.GenMutation(mutationBytes)).Map(func(ms []testutil.Mutation) []testutil.Mutation {
			return ms[:len(ms)%3] // none, one or two
		}), gen.Bool(),
	))
	properties.TestingRun(t)
}

// checkChunking returns what differs between the whole and the chunked
// runs of data, or "".
func checkChunking(data []byte, r *rand.Rand, nf token.NewFunc) string {
	opt := argstream.WithTokenizer(nf)
	whole, err := testutil.Observe([][]byte{data}, opt)
	if err != nil {
		return err.Error()
	}
	if msg := checkLocation(data, nf); msg != "" {
		return msg
	}
	for _, chunks := range [][][]byte{testutil.SplitRandom(data, r, 9), testutil.SplitEvery(data, 1)} {
		got, err := testutil.Observe(chunks, opt)
		if err != nil {
			return err.Error()
		}
		if diff := cmp.Diff(whole, got); diff != "" {
			return strings.Join([]string{string(data), diff}, "\n")
		}
		if msg := checkPieces(chunks, nf); msg != "" {
			return msg
		}
	}
	return ""
}

// checkPieces feeds chunks to a tokenizer of nf and returns a complaint if
// a string piece ends inside a UTF-8 sequence.
func checkPieces(chunks [][]byte, nf token.NewFunc) string {
	bad := ""
	tok := nf(token.HandlerFunc(func(e token.Event) error {
		if e.Kind == token.StringData && (len(e.Data) == 0 || !utf8.Valid(e.Data)) && bad == "" {
			bad = "string piece " + string(e.Data) + " is empty or cut inside a UTF-8 sequence"
		}
		return nil
	}))
	for _, c := range chunks {
		if tok.Feed(c) != nil {
			break
		}
	}
	tok.Close()
	return bad
}

// checkLocation parses data and returns a complaint if the error's Line
// and Column are not those of its Offset, counted here.
func checkLocation(data []byte, nf token.NewFunc) string {
	_, err := parse(nf, string(data))
	var se *token.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	before := data[:se.Offset]
	line := 1 + bytes.Count(before, []byte{'\n'})
	col := len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	if se.Line != line || se.Column != col {
		return fmt.Sprintf("%q: %v: at line %d, column %d, not %d:%d", data, err, line, col, se.Line, se.Column)
	}
	return ""
}
