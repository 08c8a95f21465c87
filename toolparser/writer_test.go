package toolparser_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/wiretest"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/toolparser"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

const envelope = `{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1700000000,"model":"m"}`

// message is what a client's accumulator makes of the chunks.
type message struct {
	Content   string
	Reasoning string
	Calls     []call
	Finish    string
}

type call struct {
	ID, Name, Args string
}

// accumulate reads chunks as a client's accumulator does, and checks
// their grammar: each one a chunk of the envelope, the role in the
// first, a call's head (index, id, type, name, arguments "") before its
// arguments, calls at the indexes 0, 1, 2..., nothing after the chunk
// with the finish_reason. It returns what the client reads.
func accumulate(chunks []string) (message, error) {
	var m message
	for n, c := range chunks {
		var v struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Created int64  `json:"created"`
			Model   string `json:"model"`
			Choices []struct {
				Index int `json:"index"`
				Delta struct {
					Role      *string `json:"role"`
					Content   *string `json:"content"`
					Reasoning *string `json:"reasoning_content"`
					ToolCalls []struct {
						Index    int     `json:"index"`
						ID       *string `json:"id"`
						Type     *string `json:"type"`
						Function struct {
							Name      *string `json:"name"`
							Arguments *string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(c), &v); err != nil {
			return m, fmt.Errorf("chunk %d %s: %v", n, c, err)
		}
		if v.ID != "chatcmpl-9" || v.Object != "chat.completion.chunk" || v.Created != 1700000000 || v.Model != "m" || len(v.Choices) != 1 || v.Choices[0].Index != 0 {
			return m, fmt.Errorf("chunk %d's envelope: %s", n, c)
		}
		if m.Finish != "" {
			return m, fmt.Errorf("chunk %d after the finish_reason: %s", n, c)
		}
		ch := v.Choices[0]
		d := ch.Delta
		if (n == 0) != (d.Role != nil) || (d.Role != nil && *d.Role != "assistant") {
			return m, fmt.Errorf("chunk %d's role: %s", n, c)
		}
		if d.Content != nil {
			m.Content += *d.Content
		}
		if d.Reasoning != nil {
			m.Reasoning += *d.Reasoning
		}
		for _, tc := range d.ToolCalls {
			switch {
			case tc.Index == len(m.Calls):
				if tc.ID == nil || tc.Type == nil || *tc.Type != "function" || tc.Function.Name == nil || *tc.Function.Name == "" ||
					tc.Function.Arguments == nil || *tc.Function.Arguments != "" {
					return m, fmt.Errorf("chunk %d: the first delta of call %d: %s", n, tc.Index, c)
				}
				m.Calls = append(m.Calls, call{ID: *tc.ID, Name: *tc.Function.Name})
			case tc.Index == len(m.Calls)-1:
				if tc.ID != nil || tc.Type != nil || tc.Function.Name != nil || tc.Function.Arguments == nil || *tc.Function.Arguments == "" {
					return m, fmt.Errorf("chunk %d: a delta of call %d: %s", n, tc.Index, c)
				}
				m.Calls[tc.Index].Args += *tc.Function.Arguments
			default:
				return m, fmt.Errorf("chunk %d: call %d out of order: %s", n, tc.Index, c)
			}
		}
		if ch.FinishReason != nil {
			m.Finish = *ch.FinishReason
		}
	}
	return m, nil
}

// reference reads text whole with the dialect's Reader and a Response:
// the prose, and each call's name and arguments; and the first call's
// error, if one fails.
// A text whose markers are out of place (a *token.SyntaxError from the
// Reader) fails the message as a call that fails does: its error is
// returned as the first call's.
func reference(syntax dialect.Syntax, tools *schema.Tools, text string) (message, *toolparser.CallError) {
	var m message
	calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(syntax.Tokenizer(tools))))
	rd := dialect.NewReader(syntax, calls, dialect.OnText(func(b []byte) { m.Content += string(b) }))
	_, werr := rd.WriteString(text)
	if cerr := rd.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		calls.End()
		return m, &toolparser.CallError{Index: -1, Err: werr}
	}
	for _, r := range calls.End() {
		err := r.Err
		if err == nil && r.Call.Name == "" {
			err = errors.New("no tool name")
		}
		if err != nil {
			return m, &toolparser.CallError{Index: r.Call.Index, Name: r.Call.Name, Err: err}
		}
		m.Calls = append(m.Calls, call{Name: r.Call.Name, Args: string(r.Arguments)})
	}
	m.Finish = "stop"
	if len(m.Calls) > 0 {
		m.Finish = "tool_calls"
	}
	return m, nil
}

// run writes the pieces of text through a Writer, and returns its chunks
// and its error.
func run(syntax dialect.Syntax, tools *schema.Tools, pieces [][]byte, finish string) ([]string, error) {
	var chunks []string
	ids := 0
	w := toolparser.NewWriter(syntax, func(c []byte) error {
		chunks = append(chunks, string(c))
		return nil
	}, toolparser.WithTools(tools), toolparser.WithCallIDs(func() string { ids++; return fmt.Sprintf("call_%d", ids) }))
	w.SetEnvelope([]byte(envelope))
	for _, p := range pieces {
		if _, err := w.Write(p); err != nil {
			return chunks, err
		}
	}
	return chunks, w.Finish(finish)
}

var testTools = mustTools(`[{"type": "function", "function": {"name": "write_file", "parameters": {"properties": {
	"path": {"type": "string"}, "content": {"type": "string"}, "count": {"type": "integer"}, "force": {"type": "boolean"},
	"tags": {"type": "array", "items": {"type": "string"}}}}}},
	{"type": "function", "function": {"name": "get_weather", "parameters": {"properties": {"city": {"type": "string"}}}}}]`)

func mustTools(s string) *schema.Tools {
	t, err := schema.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return t
}

// prose is what the text between calls is made of: near-miss openings,
// markup, and characters of several bytes, which random cuts split.
var prose = map[dialect.Syntax][]string{
	dialect.Qwen: {"text ", "<tool_cal>", "<tool_call", "<", "</tool_call>", "<function=f>", "\n", " ", "é", "日本", "🎉", "a < b"},
	dialect.XML:  {"a", " < ", "<", "<t", "<tool", "<tool:", "<tool:x y>", "</tool:x>", ">", "\n", "é", "日本", "🎉"},
}

// genText generates a message of syntax: prose, and up to three calls of
// the test tools with arguments that Format writes, each followed by
// prose; with one chance in five, the last call is cut short or has a
// value its schema refuses.
func genText(syntax dialect.Syntax) gopter.Gen {
	words, ok := prose[syntax]
	if !ok {
		// The near-misses of every marked family's markers.
		words = []string{"text ", "<", "[", "[TOOL", "<|", "<|start", "<｜", "<｜tool▁calls▁begi", "<tool_cal", "<minimax:tool_cal",
			"\n", " ", "é", "日本", "🎉", "a < b", "```"}
	}
	args := gen.OneConstOf(
		`{"path": "src/main.go", "content": "package main\n\nfunc main() {}\n", "count": 3, "force": true}`,
		`{"path": "a b/日本.txt", "content": "<tool_cal </param \"quoted\" & é🎉 <b>", "tags": ["x", "y"]}`,
		`{"path": "", "content": ""}`,
		`{"city": "Paris"}`,
		`{}`,
	)
	return gopter.CombineGens(
		gen.SliceOfN(4, gen.SliceOf(gen.IntRange(0, len(words)-1))),
		gen.SliceOf(args),
		gen.IntRange(0, 9),
	).Map(func(g []any) string {
		ps, calls, bad := g[0].([][]int), g[1].([]string), g[2].(int)
		var b strings.Builder
		for i, w := range ps[0] {
			_ = i
			b.WriteString(words[w])
		}
		for k, a := range calls[:min(len(calls), 3)] {
			name := "write_file"
			if strings.Contains(a, "city") {
				name = "get_weather"
			}
			src, err := syntax.Format(name, []byte(a))
			if err != nil {
				panic(err)
			}
			s := string(src)
			if k == min(len(calls), 3)-1 {
				switch bad {
				case 0:
					s = s[:len(s)/2] // left open
				case 1:
					s = strings.Replace(s, "3", "three", 1) // an integer that is not one
				}
			}
			b.WriteString(s)
			for _, w := range ps[1+k] {
				b.WriteString(words[w])
			}
		}
		return b.String()
	})
}

// TestPropertyWriter: any message of qwen or xml, cut anywhere, gives the
// client the prose and the calls (names, arguments) of the whole text
// read by the dialect's Reader, in chunks of the grammar accumulate
// checks, with ids, and Whole gives the same message; a message whose
// call fails gives the same *CallError, for the same call, and no
// finish_reason.
func TestPropertyWriter(t *testing.T) {
	for _, name := range dialect.SyntaxNames() {
		syntax, err := dialect.ParseSyntax(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			properties := gopter.NewProperties(testutil.PropertyParameters(300))
			properties.Property("the chunks hold the whole text's prose and calls", prop.ForAll(
				func(text string, cuts []int) string { return checkMessage(syntax, text, cuts) },
				genText(syntax), testutil.GenCuts()))
			properties.TestingRun(t)
		})
	}
}

// FuzzWriter: TestPropertyWriter's check, on any text, cut anywhere.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{qwenCall, "Hi <tool:get_weather><param:city>Paris</param:city></tool:get_weather>", "a < b <tool_call> 日本", ""} {
		f.Add(s, uint64(7), false)
		f.Add(s, uint64(1), true)
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64, xml bool) {
		syntax := dialect.Qwen
		if xml {
			syntax = dialect.XML
		}
		var cuts []int
		for i := range 4 {
			cuts = append(cuts, int(seed>>(16*i)&0xffff))
		}
		if problem := checkMessage(syntax, text, cuts); problem != "" {
			t.Error(problem)
		}
	})
}

// checkMessage writes text cut at cuts through a Writer, and says what is
// wrong with what a client reads, "" if nothing.
func checkMessage(syntax dialect.Syntax, text string, cuts []int) string {
	want, wantErr := reference(syntax, testTools, text)
	if !utf8.ValidString(want.Content) {
		// In JSON text, each invalid byte is U+FFFD.
		q, _ := jsontext.AppendQuote(nil, want.Content)
		json.Unmarshal(q, &want.Content)
	}
	chunks, err := run(syntax, testTools, testutil.SplitAt([]byte(text), testutil.Cuts([]byte(text), cuts)), "stop")
	got, gerr := accumulate(chunks)
	if gerr != nil {
		return gerr.Error()
	}
	if wantErr != nil && wantErr.Index < 0 { // the text's error
		if err == nil || err.Error() != wantErr.Err.Error() || got.Finish != "" {
			return fmt.Sprintf("error %v (finish %q), want %v", err, got.Finish, wantErr.Err)
		}
		// In a whole response's JSON text, each invalid UTF-8 byte is U+FFFD:
		// the error is the text's, at another column.
		if _, err := fromWhole(syntax, text); err == nil || utf8.ValidString(text) && !strings.Contains(err.Error(), wantErr.Err.Error()) {
			return fmt.Sprintf("Whole: %v, want %v", err, wantErr.Err)
		}
		return ""
	}
	if wantErr != nil {
		var ce *toolparser.CallError
		if !errors.As(err, &ce) || ce.Index != wantErr.Index || ce.Name != wantErr.Name || got.Finish != "" {
			return fmt.Sprintf("error %v (finish %q), want %v", err, got.Finish, wantErr)
		}
		// A whole response's JSON text has U+FFFD for each invalid UTF-8
		// byte: the value that failed for it may be valid there.
		if _, err := fromWhole(syntax, text); utf8.ValidString(text) && !errors.Is(err, toolparser.ErrCall) {
			return fmt.Sprintf("Whole: %v, want %v", err, wantErr)
		}
		return ""
	}
	if err != nil {
		return err.Error()
	}
	for i := range got.Calls {
		want := fmt.Sprintf("call_%d", i+1)
		if syntax == dialect.KimiK2 {
			want = "functions." + got.Calls[i].Name + ":0" // the syntax's own id, as Format writes it
		}
		if id := got.Calls[i].ID; id != want {
			return fmt.Sprintf("call %d's id %q, want %q", i, id, want)
		}
		got.Calls[i].ID = ""
	}
	if d := cmp.Diff(want, got); d != "" {
		return d
	}
	whole, err := fromWhole(syntax, text)
	if err != nil {
		return err.Error()
	}
	return cmp.Diff(want, whole)
}

// fromWhole is what a client reads of text in a whole response, which
// Whole rewrote.
func fromWhole(syntax dialect.Syntax, text string) (message, error) {
	out, err := toolparser.Whole(syntax, []byte(wiretest.RawChatWhole(text, "stop")), toolparser.WithTools(testTools))
	if err != nil {
		return message{}, err
	}
	var v struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(out, &v); err != nil || len(v.Choices) != 1 {
		return message{}, fmt.Errorf("%s: %v", out, err)
	}
	m := message{Finish: v.Choices[0].FinishReason}
	if c := v.Choices[0].Message.Content; c != nil {
		if *c == "" {
			return m, fmt.Errorf("content \"\" in %s", out)
		}
		m.Content = *c
	}
	for _, tc := range v.Choices[0].Message.ToolCalls {
		if tc.Type != "function" || !strings.HasPrefix(tc.ID, "call_") && !(syntax == dialect.KimiK2 && tc.ID == "functions."+tc.Function.Name+":0") {
			return m, fmt.Errorf("%s", out)
		}
		m.Calls = append(m.Calls, call{Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	return m, nil
}

// TestWriterChunksSplitNoCharacter: cut inside a character of several
// bytes, the prose's chunks each hold whole characters: no U+FFFD.
func TestWriterChunksSplitNoCharacter(t *testing.T) {
	text := []byte("日本 🎉 é")
	for i := 1; i < len(text); i++ {
		chunks, err := run(dialect.Qwen, nil, [][]byte{text[:i], text[i:]}, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			if strings.Contains(c, "\ufffd") || strings.Contains(c, `\ufffd`) || !utf8.ValidString(c) {
				t.Errorf("cut at %d: %s", i, c)
			}
		}
		m, err := accumulate(chunks)
		if err != nil || m.Content != string(text) || m.Finish != "stop" {
			t.Errorf("cut at %d: %+v %v", i, m, err)
		}
	}
}

// TestWriterFinish: the finish_reason is tool_calls for a message with
// calls, else the upstream's, or stop.
func TestWriterFinish(t *testing.T) {
	call := "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"
	for _, c := range []struct{ text, upstream, want string }{
		{"Hello.", "", "stop"},
		{"Hello.", "stop", "stop"},
		{"Hello.", "length", "length"},
		{"Hello.", "content_filter", "content_filter"},
		{call, "stop", "tool_calls"},
		{"Let me see. " + call + " Done.", "length", "tool_calls"},
	} {
		chunks, err := run(dialect.Qwen, testTools, [][]byte{[]byte(c.text)}, c.upstream)
		m, aerr := accumulate(chunks)
		if err != nil || aerr != nil || m.Finish != c.want {
			t.Errorf("%q with %q: finish %q (%v, %v), want %q", c.text, c.upstream, m.Finish, err, aerr, c.want)
		}
	}
}

// TestWriterCallFails: a call whose arguments fail ends the message: the
// Writer returns a *CallError saying which call and where, emits no
// finish_reason and nothing more, and refuses more text.
func TestWriterCallFails(t *testing.T) {
	for _, c := range []struct {
		name  string
		text  string
		index int64
		is    error
	}{
		{"a value its schema refuses", "<tool_call>\n<function=write_file>\n<parameter=count>\nmany\n</parameter>\n</function>\n</tool_call>", 0, token.ErrSchema},
		{"a parameter its schema does not declare", "ok <tool_call>\n<function=get_weather>\n<parameter=town>\nParis\n</parameter>\n</function>\n</tool_call>", 0, token.ErrSchema},
		{"left open", "<tool_call>\n<function=get_weather>\n<parameter=city>\nPar", 0, token.ErrTruncated},
		{"a second call left open", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call><tool_call>\n<function=get_weather>\n", 1, token.ErrTruncated},
		{"no name", "<tool_call>oops</tool_call>", 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var chunks []string
			w := toolparser.NewWriter(dialect.Qwen, func(b []byte) error { chunks = append(chunks, string(b)); return nil }, toolparser.WithTools(testTools))
			w.SetEnvelope([]byte(envelope))
			_, err := w.WriteString(c.text)
			if err == nil {
				err = w.Finish("stop")
			}
			var ce *toolparser.CallError
			if !errors.As(err, &ce) || ce.Index != c.index || !errors.Is(err, toolparser.ErrCall) || (c.is != nil && !errors.Is(err, c.is)) {
				t.Fatalf("error %v, want a CallError of call %d wrapping %v", err, c.index, c.is)
			}
			n := len(chunks)
			if _, err2 := w.WriteString("more"); !errors.Is(err2, toolparser.ErrCall) {
				t.Errorf("after the failure: %v", err2)
			}
			if err2 := w.Finish("stop"); !errors.Is(err2, toolparser.ErrCall) || len(chunks) != n {
				t.Errorf("Finish after the failure: %v, %d chunks more", err2, len(chunks)-n)
			}
			m, aerr := accumulate(chunks)
			if aerr != nil || m.Finish != "" {
				t.Errorf("chunks %v: %v, finish %q", chunks, aerr, m.Finish)
			}
		})
	}
}

// TestWriterReset: a Writer reused with Reset writes the next message
// from index 0 and a first chunk with the role, with the same envelope.
func TestWriterReset(t *testing.T) {
	var chunks []string
	w := toolparser.NewWriter(dialect.XML, func(b []byte) error { chunks = append(chunks, string(b)); return nil })
	w.SetEnvelope([]byte(envelope))
	text := "Hi <tool:get_weather><param:city>Paris</param:city></tool:get_weather>"
	var first message
	for i := range 3 {
		chunks = nil
		if _, err := w.WriteString(text); err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(""); err != nil {
			t.Fatal(err)
		}
		if _, err := w.WriteString("x"); !errors.Is(err, toolparser.ErrFinished) {
			t.Errorf("after Finish: %v", err)
		}
		m, err := accumulate(chunks)
		if err != nil {
			t.Fatal(err)
		}
		m.Calls[0].ID = ""
		if i == 0 {
			first = m
		} else if d := cmp.Diff(first, m); d != "" {
			t.Errorf("message %d: %s", i, d)
		}
		w.Reset()
	}
	if first.Content != "Hi " || len(first.Calls) != 1 || first.Calls[0].Args != `{"city":"Paris"}` {
		t.Errorf("%+v", first)
	}
}

// TestNewCallID: "call_" and 24 letters and digits, different each time.
func TestNewCallID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := toolparser.NewCallID()
		if len(id) != 29 || !strings.HasPrefix(id, "call_") || strings.Trim(id[5:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" || seen[id] {
			t.Fatalf("%q", id)
		}
		seen[id] = true
	}
}

// TestWriterInvalidUTF8BeforeCall: the start of a character kept back at
// the end of a Write goes out as content (U+FFFD, invalid as it is) when
// a call follows, never into the call's arguments.
func TestWriterInvalidUTF8BeforeCall(t *testing.T) {
	chunks, err := run(dialect.XML, testTools, [][]byte{[]byte("ok \xe6"), []byte("<tool:get_weather><param:city>Paris</param:city></tool:get_weather>")}, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := accumulate(chunks)
	if err != nil || m.Content != "ok \ufffd" || len(m.Calls) != 1 || m.Calls[0].Args != `{"city":"Paris"}` {
		t.Errorf("%+v %v", m, err)
	}
}
