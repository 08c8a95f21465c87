package ollamastream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/google/go-cmp/cmp"
)

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// writeStream writes p's calls as an Ollama stream: one to three calls a
// line, in the order of p.Calls (so that each call's index is its
// position), each with its id, name, a function.index at random (0, or its
// position) and its arguments' JSON text (args); lines of text and
// thinking mixed in, members in random order, some ended by CRLF; then the
// done line, with or without its "\n". It returns the stream and the text
// and thinking it carries.
func writeStream(p wiretest.WirePlan, rng *rand.Rand) (stream []byte, text, thinking string) {
	var b bytes.Buffer
	end := func() {
		if rng.IntN(4) == 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	line := func(message string, done bool) {
		members := []string{`"model":"qwen3"`, `"created_at":"2025-07-07T20:22:19Z"`, `"message":{` + message + `}`, fmt.Sprintf(`"done":%v`, done)}
		if done {
			members = append(members, `"done_reason":"stop"`, `"total_duration":1`)
		}
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		b.WriteString("{" + strings.Join(members, ",") + "}")
	}
	words := func() string { return fmt.Sprint("w", rng.IntN(100), " \"é\" ") }
	for i := 0; i < len(p.Calls); {
		if rng.IntN(3) == 0 {
			t := words()
			text += t
			line(`"role":"assistant","content":`+quote(t), false)
			end()
		}
		if rng.IntN(3) == 0 {
			t := words()
			thinking += t
			line(`"role":"assistant","content":"","thinking":`+quote(t), false)
			end()
		}
		n := min(len(p.Calls)-i, 1+rng.IntN(3))
		var elems []string
		for _, c := range p.Calls[i : i+n] {
			index := 0
			if rng.IntN(2) == 0 {
				index = i
			}
			fn := []string{`"index":` + fmt.Sprint(index), `"name":` + quote(c.Name), `"arguments":` + args(c)}
			rng.Shuffle(len(fn), func(i, j int) { fn[i], fn[j] = fn[j], fn[i] })
			elems = append(elems, `{"id":`+quote(c.ID)+`,"function":{`+strings.Join(fn, ",")+`}}`)
			i++
		}
		line(`"role":"assistant","content":"","tool_calls":[`+strings.Join(elems, ",")+`]`, false)
		end()
	}
	line(`"role":"assistant","content":""`, true)
	if rng.IntN(2) == 0 {
		end()
	}
	return b.Bytes(), text, thinking
}

// args is the JSON text of c's arguments as generated, or, if it holds a
// byte that ends a line for some reader, compact with U+0085, U+2028 and
// U+2029 escaped, as Ollama writes it (encoding/json).
func args(c wiretest.WireCall) string {
	if s := strings.Join(c.Deltas, ""); !breaks(s) {
		return s
	}
	return strings.NewReplacer("\u0085", `\u0085`, "\u2028", `\u2028`, "\u2029", `\u2029`).Replace(c.Want)
}

// breaks reports whether s holds a byte that ends a line for some readers.
func breaks(s string) bool {
	return strings.ContainsAny(s, "\r\n\u0085\u2028\u2029")
}

// TestProperty: a generated stream of 1 to 4 calls, read whole, gives each
// call executable with its arguments, at its position, and the text and
// thinking; read in random reads, the same (go-cmp); cut short, an error
// wrapping io.ErrUnexpectedEOF with no call that the whole stream does not
// have.
func TestProperty(t *testing.T) {
	var read, cuts int
	defer func() {
		t.Logf("%d streams, %d cut", read, cuts)
		if cuts*2 < read {
			t.Errorf("%d of %d streams cut: the property checks too few", cuts, read)
		}
	}()
	wiretest.PlanProperty(t, "whole, split and cut", func(docs []testutil.Doc, seed uint64, cut int) string {
		rng := rand.New(rand.NewPCG(seed, 7))
		p, err := wiretest.MakeWirePlan(docs, 0, rng)
		if err != nil {
			return err.Error()
		}
		stream, text, thinking := writeStream(p, rng)
		read++
		readAll := func(rd io.Reader) wiretest.Got { return adapterRead.Run(toolcall.New(), rd) }
		whole := readAll(bytes.NewReader(stream))
		if whole.Err != nil {
			return fmt.Sprintf("Read = %v\n%s", whole.Err, stream)
		}
		if diff := cmp.Diff(p.Want(), whole.Calls); diff != "" {
			return fmt.Sprintf("calls (-want +got):\n%s\n%s", diff, stream)
		}
		if whole.Text[0] != text || whole.Thinking[0] != thinking {
			return fmt.Sprintf("text %q, thinking %q; want %q, %q", whole.Text[0], whole.Thinking[0], text, thinking)
		}
		split := readAll(wiretest.RandomReads(bytes.NewReader(stream), seed, 1+int(seed%64)))
		if diff := cmp.Diff(whole, split, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
			return fmt.Sprintf("split read (-whole +split):\n%s", diff)
		}
		n := cut % len(bytes.TrimRight(stream, "\r\n"))
		if n > 0 && bytes.LastIndexByte(stream, '}') >= n {
			cuts++
			cutGot := readAll(bytes.NewReader(stream[:n]))
			if !errors.Is(cutGot.Err, io.ErrUnexpectedEOF) || errors.Is(cutGot.Err, wire.ErrMalformed) {
				return fmt.Sprintf("cut at %d: Read = %v\n%s", n, cutGot.Err, stream)
			}
			for i, c := range cutGot.Calls {
				if c.Executable && c != whole.Calls[i] {
					return fmt.Sprintf("cut at %d: call %+v", n, c)
				}
			}
		}
		return ""
	})
}
