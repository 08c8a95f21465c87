package dialect

import (
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
	gocmp "github.com/google/go-cmp/cmp"
)

// mcall is a Result of a marked family's call in a form that compares.
type mcall struct {
	Name, ID   string
	Args       string // compact JSON, if valid
	Err        string // the error's category: "truncated", "syntax", ... or its message
	Executable bool
}

// moutcome is what a Reader of a marked family delivers for one message.
type moutcome struct {
	Text, Reasoning string
	Calls           []mcall
	Err             string // what Write or Close returned
}

// mharness is a Reader of a marked family with the family's own
// tokenizers.
type mharness struct {
	r         *Reader
	calls     *toolcall.Response
	text, rsn strings.Builder
}

func newMHarness(syn Syntax, tools *schema.Tools) *mharness {
	h := &mharness{}
	h.calls = toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(syn.Tokenizer(tools))))
	h.r = NewReader(syn, h.calls,
		OnText(func(b []byte) { h.text.Write(b) }),
		OnReasoning(func(b []byte) { h.rsn.Write(b) }))
	return h
}

func (h *mharness) run(chunks []string) moutcome {
	var o moutcome
	for _, c := range chunks {
		if _, err := h.r.WriteString(c); err != nil {
			o.Err = err.Error()
			break
		}
	}
	if err := h.r.Close(); err != nil && o.Err == "" {
		o.Err = err.Error()
	}
	for _, res := range h.calls.End() {
		c := mcall{Name: res.Call.Name, ID: res.Call.ID, Args: string(res.Arguments), Executable: res.Executable}
		c.Err = errCategory(res.Err)
		o.Calls = append(o.Calls, c)
	}
	o.Text, o.Reasoning = h.text.String(), h.rsn.String()
	h.text.Reset()
	h.rsn.Reset()
	h.r.Reset()
	h.calls.Reset()
	return o
}

// errCategory names err by its token category, or gives its message.
func errCategory(err error) string {
	for _, c := range []struct {
		err  error
		name string
	}{{token.ErrTruncated, "truncated"}, {token.ErrSyntax, "syntax"}, {token.ErrDuplicateKey, "duplicate"},
		{token.ErrSchema, "schema"}, {token.ErrTrailingData, "trailing"}} {
		if errors.Is(err, c.err) {
			return c.name
		}
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func readM(syn Syntax, chunks ...string) moutcome {
	return newMHarness(syn, nil).run(chunks)
}

func ok(name, args string) mcall { return mcall{Name: name, Args: args, Executable: true} }

func TestMarkedFamilies(t *testing.T) {
	for _, c := range []struct {
		syn  Syntax
		in   string
		want moutcome
	}{
		// Hermes
		{Hermes, "Sure.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
			moutcome{Text: "Sure.\n", Calls: []mcall{ok("get_weather", `{"city":"Paris"}`)}}},
		{Hermes, "<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n<tool_call>{\"name\":\"b\",\"arguments\":{\"x\":\"</tool_call>\"}}</tool_call> done",
			moutcome{Text: "\n done", Calls: []mcall{ok("a", `{}`), ok("b", `{"x":"</tool_call>"}`)}}},
		{Hermes, "<tool_call>{\"arguments\": {\"name\": \"x\"}, \"name\": \"a\"}</tool_call>",
			moutcome{Calls: []mcall{ok("a", `{"name":"x"}`)}}},
		{Hermes, "<tool_call>{\"arguments\": {}}</tool_call>",
			moutcome{Calls: []mcall{{Err: "syntax"}}}},
		{Hermes, "Use <tool_call> tags. </tool_call>\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>",
			moutcome{Text: "Use \n", Calls: []mcall{{Err: "syntax"}, ok("f", "{}")}}},
		{Mistral, "[TOOL_CALLS]f{\"a\": 1}x",
			moutcome{Text: "x", Calls: []mcall{ok("f", `{"a":1}`)}}},
		{Hermes, "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1}}",
			moutcome{Calls: []mcall{{Name: "a", Err: "truncated"}}}},
		{Hermes, "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1, \"x\": 2}}</tool_call>",
			moutcome{Calls: []mcall{{Name: "a", Err: "duplicate"}}}},
		{Hermes, "a < b <tool_cal",
			moutcome{Text: "a < b <tool_cal"}},
		// Mistral
		{Mistral, "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}[TOOL_CALLS]f[ARGS]{}",
			moutcome{Calls: []mcall{ok("get_weather", `{"city":"Paris"}`), ok("f", `{}`)}}},
		{Mistral, "Hi [TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {\"q\": [1, {\"r\": \"]}\"}]}}, {\"name\": \"b\", \"arguments\": {}, \"id\": \"abc123XYZ\"}]",
			moutcome{Text: "Hi ", Calls: []mcall{ok("a", `{"q":[1,{"r":"]}"}]}`), {Name: "b", ID: "abc123XYZ", Args: `{}`, Executable: true}}}},
		{Mistral, "[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{\"a\":1}",
			moutcome{Calls: []mcall{{Name: "f", ID: "a1b2c3d4e", Args: `{"a":1}`, Executable: true}}}},
		{Mistral, "[TOOL_CALLS]f[ARGS]{\"a\":1",
			moutcome{Calls: []mcall{{Name: "f", Err: "truncated"}}}},
		// DeepSeek V3
		{DeepSeekV3, "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris```<｜tool▁call▁end｜>\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>ok",
			moutcome{Text: "Let me check.ok", Calls: []mcall{ok("get_weather", `{"city":"Paris`+"```<｜tool▁call▁end｜>"+`"}`), ok("f", `{}`)}}},
		// DeepSeek V3.1
		{DeepSeekV3, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": \"`\"}\n````<｜tool▁call▁end｜><｜tool▁calls▁end｜>x",
			moutcome{Text: "x", Calls: []mcall{{Name: "f", Err: "trailing"}}}},
		{DeepSeekV31, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
			moutcome{Calls: []mcall{ok("get_weather", `{"city":"Paris"}`)}}},
		{DeepSeekV31, "<｜tool▁calls▁begin｜>oops<｜tool▁call▁begin｜>",
			moutcome{Err: "token: invalid deepseek-v31 text at byte 28 (line 1, column 29): only white space may separate the calls of a section"}},
		{DeepSeekV31, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": 1}",
			moutcome{Calls: []mcall{{Name: "f", Err: "truncated"}}}},
		// Kimi K2
		{KimiK2, "<|tool_calls_section_begin|> <|tool_call_begin|> functions.get_weather:0 <|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|> <|tool_call_begin|>functions.f:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
			moutcome{Calls: []mcall{{Name: "get_weather", ID: "functions.get_weather:0", Args: `{"city":"Paris"}`, Executable: true},
				{Name: "f", ID: "functions.f:1", Args: `{}`, Executable: true}}}},
		{KimiK2, "<|tool_calls_section_begin|><|tool_call_begin|>get_weather<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.f:1<|tool_call_argument_begin|>{}<|tool_call_end|>",
			moutcome{Calls: []mcall{{Err: "syntax"},
				{Name: "f", ID: "functions.f:1", Args: "{}", Executable: true}}}},
		// Harmony
		{Harmony, "<|channel|>analysis<|message|>User wants weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"<|call|>\"}<|call|>",
			moutcome{Reasoning: "User wants weather.", Calls: []mcall{ok("get_weather", `{"city":"<|call|>"}`)}}},
		{Harmony, "<|channel|>final<|message|>It is <b>sunny</b> <|end|>",
			moutcome{Text: "It is <b>sunny</b> "}},
		{Harmony, "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>",
			moutcome{Calls: []mcall{ok("f", `{}`)}}},
		{Harmony, "<|start|>user<|message|>hi<|end|>",
			moutcome{Err: `token: invalid harmony text at byte 23 (line 1, column 24): a message header that is not an assistant's: "<|start|>user"`}},
	} {
		for _, chunks := range [][]string{{c.in}, splitEvery(c.in, 1), splitEvery(c.in, 7)} {
			got := readM(c.syn, chunks...)
			if d := gocmp.Diff(c.want, got); d != "" {
				t.Errorf("%v %q in %d chunks (-want +got):\n%s", c.syn, c.in, len(chunks), d)
				break
			}
		}
	}
}

func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// TestMarkers checks what litMatcher needs of the markers: no marker of a
// set a prefix of another.
func TestMarkers(t *testing.T) {
	sets := [][]string{harmonyEnds, {toolCallEnd}}
	for s := Hermes; s <= lastSyntax; s++ {
		f := families[s]
		sets = append(sets, f.opens, []string{f.closer})
		if f.shape == shapeSection {
			for _, c := range f.closes {
				sets = append(sets, []string{f.call, c})
			}
		}
	}
	for _, set := range sets {
		for i, a := range set {
			if a == "" {
				continue
			}
			for j, b := range set {
				if i != j && strings.HasPrefix(b, a) {
					t.Errorf("marker %q begins %q", a, b)
				}
			}
		}
	}
}

// TestTagFamilies checks the framing of the families written in tags: the
// source each call's tokenizer is fed, from its own opening tag to its
// closer, the prose, and the section markers dropped.
func TestTagFamilies(t *testing.T) {
	type src struct {
		Name, Source, Err string
	}
	for _, c := range []struct {
		syn     Syntax
		in      string
		text    string
		calls   []src
		wantErr string
	}{
		{GLM45, "Hi <tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</tool_call>x</arg_value>\n</tool_call> bye",
			"Hi x</arg_value>\n</tool_call> bye", []src{{"get_weather", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</tool_call>", ""}}, ""},
		{GLM45, "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call><tool_call>g</tool_call>",
			"", []src{{"f", "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>", ""}, {"g", "<tool_call>g</tool_call>", ""}}, ""},
		{GLM45, "<tool_call> not a call</tool_call>",
			"", []src{{"", "<tool_call> not a call</tool_call>", ""}}, ""},
		{GLM45, "<tool_call>f\n<arg_key>a",
			"", []src{{"f", "<tool_call>f\n<arg_key>a", "truncated"}}, ""},
		{MiniMaxM2, "Ok.<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n<invoke name=\"f\"></invoke>\n</minimax:tool_call>Done",
			"Ok.Done", []src{{"get_weather", "<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>", ""},
				{"f", "<invoke name=\"f\"></invoke>", ""}}, ""},
		{MiniMaxM2, "<minimax:tool_call><invoke name=\"bad name\">x</invoke><invoke name=\"f\"></invoke>",
			"", []src{{"", "", `token: invalid minimax-m2 text at byte 42 (line 1, column 43): a call's head that names no tool: "bad name"`},
				{"f", "<invoke name=\"f\"></invoke>", ""}}, ""},
		{DeepSeekDSML, "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
			"", []src{{"f", "<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"a\" string=\"true\">x</｜DSML｜parameter>\n</｜DSML｜invoke>", ""}}, ""},
		{DeepSeekDSML, "<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke></｜DSML｜tool_calls>after",
			"after", []src{{"f", "<｜DSML｜invoke name=\"f\"></｜DSML｜invoke>", ""}}, ""},
		{DeepSeekDSML, "<｜DSML｜tool_calls><｜DSML｜invoke name=\"f\"></｜DSML｜invoke></｜DSML｜function_calls>",
			"", []src{{"f", "", "token: invalid deepseek-dsml text at byte 80 (line 1, column 81): only white space may separate the calls of a section"}}, "token: invalid deepseek-dsml text at byte 80 (line 1, column 81): only white space may separate the calls of a section"},
	} {
		for _, chunks := range [][]string{{c.in}, splitEvery(c.in, 1), splitEvery(c.in, 5)} {
			o := read(c.syn, chunks...)
			var got []src
			for _, r := range o.Calls {
				got = append(got, src{r.Name, r.Source, r.Err})
			}
			gotErr := o.WriteErr
			if i := strings.IndexByte(gotErr, ' '); i >= 0 {
				gotErr = gotErr[i+1:] // the byte count before the error depends on the chunking
			}
			if gotErr == "" {
				gotErr = o.CloseErr
			}
			if d := gocmp.Diff(c.calls, got); d != "" || o.text() != c.text || gotErr != c.wantErr {
				t.Errorf("%v %q in %d chunks: text %q, error %q, calls (-want +got):\n%s", c.syn, c.in, len(chunks), o.text(), gotErr, d)
				break
			}
		}
	}
}

// TestLateName: a Hermes or Mistral object that gives its arguments before
// its name is read, the name coming late: with a policy on the tool, the
// policy did not see the arguments as they streamed, and the call may not
// run (toolcall.ErrLateName).
func TestLateName(t *testing.T) {
	rules, _, err := policy.Parse([]byte(`{"run": "unattended"}`))
	if err != nil {
		t.Fatal(err)
	}
	policyFor := func(name string) *policy.Policy {
		if name == "rm" {
			return rules
		}
		return nil
	}
	for _, c := range []struct {
		syn  Syntax
		text string
	}{
		{Hermes, `<tool_call>{"arguments": {"path": "/"}, "name": "rm"}</tool_call>`},
		{Mistral, `[TOOL_CALLS] [{"arguments": {"path": "/"}, "name": "rm"}]`},
	} {
		calls := toolcall.New(toolcall.WithStreamOptions(argstream.WithTokenizer(c.syn.Tokenizer(nil))),
			toolcall.WithPolicy(policyFor))
		rd := NewReader(c.syn, calls)
		if _, err := rd.WriteString(c.text); err != nil {
			t.Fatal(err)
		}
		if err := rd.Close(); err != nil {
			t.Fatal(err)
		}
		res := calls.End()
		if len(res) != 1 || res[0].Call.Name != "rm" || res[0].Executable || !errors.Is(res[0].Err, toolcall.ErrLateName) {
			t.Errorf("%v: %+v, want rm refused with ErrLateName", c.syn, res)
		}
	}
}
