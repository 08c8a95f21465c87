// Package wiretest supports the tests of the provider wire adapters
// (wire/...) and of the commands that read provider streams: generated
// responses and their SSE framing, recordings framed again, reads of random
// sizes, and a comparable summary of a response's results. It is apart from
// testutil because it depends on toolcall, which testutil's users (policy)
// must not.
package wiretest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/sse"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// WireCall is one tool call of a generated response.
type WireCall struct {
	Index    int64
	ID, Name string
	Deltas   []string // the argument text, cut at random; their concatenation is the JSON text
	Want     string   // the canonical (compact) arguments
}

// WireStep is one step of a generated response: the start of Calls[Call]
// ([WireStep.Delta] == -1), its delta Delta, or its end (Delta == len(Deltas)).
type WireStep struct {
	Call, Delta int
}

// WirePlan is a generated response: its calls, and the order in which a
// provider sends their starts, deltas and ends. Each call's steps are in
// order; the calls' steps are interleaved at random.
type WirePlan struct {
	Calls []WireCall
	Steps []WireStep
}

// MakeWirePlan makes a response of the given arguments: distinct indexes
// from first up, in random order of start, deltas of 0 to 16 bytes (empty
// deltas included, keys and escapes cut anywhere), and a random
// interleaving.
func MakeWirePlan(docs []testutil.Doc, first int64, rng *rand.Rand) (WirePlan, error) {
	var p WirePlan
	var seqs [][]WireStep
	for i, pos := range rng.Perm(len(docs)) {
		want, err := testutil.Canonical(docs[pos].Text)
		if err != nil {
			return p, fmt.Errorf("generated arguments %q: %v", docs[pos].Text, err)
		}
		c := WireCall{Index: first + int64(i), ID: fmt.Sprint("call_", i), Name: fmt.Sprint("tool", i), Want: string(want)}
		// A delta is a JSON string: it holds whole characters, so a cut
		// inside a UTF-8 sequence moves to the character's end.
		text, at, cut := docs[pos].Text, 0, 0
		for _, ch := range testutil.SplitRandom(text, rng, 1+rng.IntN(16)) {
			cut += len(ch)
			end := max(cut, at)
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
			c.Deltas = append(c.Deltas, string(text[at:end]))
			at = end
		}
		if rng.IntN(4) == 0 { // an empty delta first, as some servers send
			c.Deltas = append([]string{""}, c.Deltas...)
		}
		seq := []WireStep{{i, -1}}
		for d := range c.Deltas {
			seq = append(seq, WireStep{i, d})
		}
		seqs = append(seqs, append(seq, WireStep{i, len(c.Deltas)}))
		p.Calls = append(p.Calls, c)
	}
	for len(seqs) > 0 {
		i := rng.IntN(len(seqs))
		p.Steps = append(p.Steps, seqs[i][0])
		if seqs[i] = seqs[i][1:]; len(seqs[i]) == 0 {
			seqs = append(seqs[:i], seqs[i+1:]...)
		}
	}
	return p, nil
}

// PlanProperty checks, on 200 cases, that check reports no problem. Each
// case is 1 to 4 generated arguments (docs), a seed, from which check makes
// a response of those calls (MakeWirePlan) and its stream, and a cut
// (0 to 2^20), where check cuts the stream; check returns what went wrong,
// or "".
func PlanProperty(t *testing.T, name string, check func(docs []testutil.Doc, seed uint64, cut int) string) {
	t.Helper()
	properties := gopter.NewProperties(testutil.PropertyParameters(200))
	docs := gen.SliceOfN(4, testutil.GenArgs(), reflect.TypeOf(testutil.Doc{}))
	properties.Property(name, prop.ForAll(
		func(n int, docs []testutil.Doc, seed uint64, cut int) string {
			return check(docs[:n], seed, cut)
		},
		gen.IntRange(1, 4), docs, gen.UInt64(), gen.IntRange(0, 1<<20),
	))
	properties.TestingRun(t)
}

// NumberedByStart returns p with its calls' indexes renumbered from first
// in the order their starts come, as Anthropic numbers content blocks.
func (p WirePlan) NumberedByStart(first int64) WirePlan {
	q := WirePlan{Calls: slices.Clone(p.Calls), Steps: p.Steps}
	next := first
	for _, s := range p.Steps {
		if s.Delta < 0 {
			q.Calls[s.Call].Index = next
			next++
		}
	}
	return q
}

// Want is the summary a whole, valid response of p gives: every call
// executable with its arguments, in index order.
func (p WirePlan) Want() []CallOutcome {
	var out []CallOutcome
	for _, c := range p.Calls {
		out = append(out, CallOutcome{Index: c.Index, ID: c.ID, Name: c.Name, Arguments: c.Want, Executable: true})
	}
	slices.SortFunc(out, func(a, b CallOutcome) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

// SSEEvent is one server-sent event to frame: an optional event type and
// its data.
type SSEEvent struct {
	Type, Data string
}

// FrameSSE writes events as a server-sent-events stream, with framing
// chosen at random but meaning the same: LF or CRLF line ends, "data:"
// with or without its space, comments and id lines here and there, the
// event line present or not (when typeOptional), data split over several
// data lines where the JSON allows a line end (the lines are joined with
// LF, which is JSON white space between tokens), and extra blank lines.
func FrameSSE(events []SSEEvent, typeOptional bool, rng *rand.Rand) []byte {
	var b bytes.Buffer
	eol := []string{"\n", "\r\n"}[rng.IntN(2)]
	for _, ev := range events {
		if rng.IntN(6) == 0 {
			b.WriteString(": keep-alive" + eol)
		}
		if ev.Type != "" && !(typeOptional && rng.IntN(2) == 0) {
			b.WriteString("event: " + ev.Type + eol)
		}
		if rng.IntN(8) == 0 {
			b.WriteString(fmt.Sprintf("id: %d%s", rng.IntN(1000), eol))
		}
		for i, line := range splitData(ev.Data, rng) {
			if i > 0 && rng.IntN(8) == 0 {
				b.WriteString(":" + eol) // a comment between data lines
			}
			if rng.IntN(2) == 0 {
				b.WriteString("data:" + line + eol)
			} else {
				b.WriteString("data: " + line + eol)
			}
		}
		b.WriteString(eol)
		if rng.IntN(10) == 0 {
			b.WriteString(eol)
		}
	}
	return b.Bytes()
}

// splitData cuts JSON data into lines at random places between tokens, where
// the LF that joins them again is white space; a leading space is doubled,
// since one space after "data:" is not data.
func splitData(data string, rng *rand.Rand) []string {
	if rng.IntN(3) != 0 || data == "" || data[0] != '{' {
		return []string{data}
	}
	var lines []string
	start, inString, escaped := 0, false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':' || c == '{' || c == '[') && rng.IntN(4) == 0 &&
			!(c == '{' && i+1 < len(data) && data[i+1] == '}'):
			// ({} stays whole: Anthropic's placeholder input is those
			// two bytes, to every reader.)
			lines = append(lines, data[start:i+1])
			start = i + 1
		}
	}
	lines = append(lines, data[start:])
	for i, l := range lines {
		if strings.HasPrefix(l, " ") {
			lines[i] = " " + l
		}
	}
	return lines
}

// SSEFromChunks frames the lines of a vercel/ai *.chunks.txt recording (one
// SSE data payload per line, the framing stripped upstream) as SSE again.
// With eventField, each event gets the "event:" line the API sends, named
// by the payload's "type"; without, only its data line.
func SSEFromChunks(chunks []byte, eventField bool) ([]byte, error) {
	var b []byte
	sc := bufio.NewScanner(bytes.NewReader(chunks))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var typ string
		if eventField {
			var v struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &v); err != nil {
				return nil, fmt.Errorf("decoding %q: %v", line, err)
			}
			typ = v.Type
		}
		var err error
		if b, err = sse.AppendEvent(b, typ, line); err != nil {
			return nil, fmt.Errorf("framing %q: %v", line, err)
		}
	}
	return b, sc.Err()
}

// DataLines yields the data of each "data:" line of stream, the one space
// after the colon dropped: the events of a recording, whose data are one
// line each, for a test to decode independently of the reader under test.
// It fails t if stream cannot be scanned (a line over 16 MiB).
func DataLines(t testing.TB, stream []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		sc := bufio.NewScanner(bytes.NewReader(stream))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && !yield(strings.TrimPrefix(data, " ")) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// RandomReads returns a reader of r whose reads return 1 to max bytes at
// random.
func RandomReads(r io.Reader, seed uint64, max int) io.Reader {
	return &randomReader{r, rand.New(rand.NewPCG(seed, 1)), max}
}

type randomReader struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (r *randomReader) Read(p []byte) (int, error) {
	if n := 1 + r.rng.IntN(r.max); len(p) > n {
		p = p[:n]
	}
	return r.r.Read(p)
}

// CallOutcome is what a wire test compares of a [toolcall.Result].
type CallOutcome struct {
	Index      int64
	ID, Name   string
	Arguments  string
	Server     bool // the provider runs it (fragment.Call.Server)
	Executable bool
	Truncated  bool // its error is token.ErrTruncated
	Syntax     bool // its error is another *token.SyntaxError
}

// Outcomes summarizes results.
func Outcomes(results []toolcall.Result) []CallOutcome {
	var out []CallOutcome
	for _, r := range results {
		var se *token.SyntaxError
		out = append(out, CallOutcome{
			Index:      r.Call.Index,
			Server:     r.Call.Server,
			ID:         r.Call.ID,
			Name:       r.Call.Name,
			Arguments:  string(r.Arguments),
			Executable: r.Executable,
			Truncated:  errors.Is(r.Err, token.ErrTruncated),
			Syntax:     errors.As(r.Err, &se) && !errors.Is(r.Err, token.ErrTruncated),
		})
	}
	return out
}

// Testdata reads a file of the module's testdata directory, wherever the
// test runs: name is its path under testdata, in slash form.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test's directory")
		}
		dir = parent
	}
	b, err := os.ReadFile(filepath.Join(dir, "testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// JSONType is the "type" member of a JSON object, decoded with
// encoding/json, independently of the code under test; "" if it has none.
func JSONType(t testing.TB, data []byte) string {
	t.Helper()
	var v struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decoding %q: %v", data, err)
	}
	return v.Type
}
