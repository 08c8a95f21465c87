package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// hiddenRunes are the classes of characters that must never reach a
// terminal raw from what a model wrote, one of each at least.
var hiddenRunes = map[string]rune{
	"zero-width space": 0x200b, "zero-width non-joiner": 0x200c, "zero-width joiner": 0x200d, "word joiner": 0x2060,
	"tag A (hidden ASCII)": 0xe0041, "tag begin": 0xe0001, "cancel tag": 0xe007f,
	"BOM": 0xfeff, "line separator": 0x2028, "paragraph separator": 0x2029, "soft hyphen": 0x00ad,
	"Hangul filler": 0x3164, "Hangul choseong filler": 0x115f, "Hangul jungseong filler": 0x1160, "halfwidth Hangul filler": 0xffa0,
	"variation selector 1": 0xfe00, "variation selector 16": 0xfe0f, "variation selector 17": 0xe0100,
	"RLO": 0x202e, "RLI": 0x2067, "LRM": 0x200e, "ESC": 0x1b, "CSI (C1)": 0x9b, "NEL": 0x85, "DEL": 0x7f, "BEL": 0x07,
	"no-break space": 0xa0, "ideographic space": 0x3000, "Braille blank": 0x2800, "combining grapheme joiner": 0x34f,
	"Mongolian vowel separator": 0x180e, "private use": 0xe000, "noncharacter": 0xfffe,
}

func hiddenNames() []string {
	var names []string
	for n := range hiddenRunes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// quoteJSON is s as a JSON string.
func quoteJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// noRaw fails the test if out holds r.
func noRaw(t *testing.T, what, out string, r rune) {
	t.Helper()
	if i := strings.IndexRune(out, r); i >= 0 {
		t.Errorf("%s: U+%04X reaches the output raw at byte %d: %q", what, r, i, out[max(i-40, 0):min(i+40, len(out))])
	}
}

// noRawOutput fails the test if a command's stdout or stderr holds r.
func noRawOutput(t *testing.T, what string, got result, r rune) {
	t.Helper()
	noRaw(t, what+" stdout", got.stdout, r)
	noRaw(t, what+" stderr", got.stderr, r)
}

// hostileResponse is an Anthropic response in which r is everywhere a
// model or a relay writes: the text, the reasoning, a call's tool name,
// id, keys and values, invalid arguments (a syntax error's detail), and
// the message of the provider's error event that ends it.
func hostileResponse(r rune) string {
	h := string(r)
	thinkStart := obj{"type": "content_block_start", "index": 1, "content_block": obj{"type": "thinking", "thinking": ""}}
	thinkDelta := obj{"type": "content_block_delta", "index": 1, "delta": obj{"type": "thinking_delta", "thinking": "I think" + h + " so\n"}}
	evs := []any{msgStart, textStart(0), textDelta(0, "Hello"+h+"world, "+strings.Repeat("long text ", 12)+h+"\nline 2"+h), blockStop(0),
		thinkStart, thinkDelta, blockStop(1)}
	evs = append(evs, obj{"type": "content_block_start", "index": 2, "content_block": obj{"type": "tool_use", "id": "toolu" + h, "name": "na" + h + "me", "input": obj{}}})
	evs = append(evs, toolDelta(2, `{"pa`+h+`th": `+quoteJSONString("/tmp/x"+h+"y")+`, "content": `+quoteJSONString(strings.Repeat("line"+h+"\n", 3))+`}`), blockStop(2))
	evs = append(evs, toolStart(3, "toolu_3", "bad"), toolDelta(3, `{"a": `+h+`}`), blockStop(3))
	evs = append(evs, obj{"type": "error", "error": obj{"type": "overloaded" + h, "message": "Over" + h + "loaded"}})
	return sseOf(evs...)
}

// TestNoInvisibleReachesTheTerminal: for every class of hidden character,
// whatever the model wrote it in, no output of the command holds it raw:
// replay's text, JSON Lines and --render (both styles), with and without
// rules (the summary lines, the prompt), stderr's messages, and the
// single-call commands' outputs and errors.
func TestNoInvisibleReachesTheTerminal(t *testing.T) {
	rules := askRules(t)
	for _, name := range hiddenNames() {
		r := hiddenRunes[name]
		h := string(r)
		t.Run(name, func(t *testing.T) {
			stream := hostileResponse(r)
			for _, args := range [][]string{
				{},
				{"--format", "jsonl"},
				{"--rules", rules},
				{"--render", "function_call", "--pace", "none"},
				{"--render", "json", "--pace", "none", "--rules", rules},
				{"--render", "function_call", "--pace", "none", "--width", "0"},
			} {
				got := replayCmd(strings.NewReader(stream), args...)
				what := fmt.Sprintf("replay %q", args)
				noRawOutput(t, what, got, r)
				if got.code != exitInvalid {
					t.Errorf("%s: exit %d", what, got.code)
				}
				// The escape is there instead, where the model wrote it.
				if len(args) == 0 && !strings.Contains(got.stdout, "na"+esc(h)+"me") {
					t.Errorf("%s: the tool name is not shown escaped:\n%s", what, got.stdout)
				}
			}
			// A call whose name a Chat Completions stream states again:
			// appended, as the SDKs append it, it differs from the first.
			restate := sseOf(
				`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"first","arguments":"{\"x\": 1"}}]}}]}`,
				`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":`+quoteJSONString("sec"+h+"ond")+`,"arguments":"}"}}]}}]}`,
				`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]")
			for _, args := range [][]string{{}, {"--format", "jsonl"}, {"--render", "json", "--pace", "none"}} {
				got := replayCmd(strings.NewReader(restate), args...)
				what := fmt.Sprintf("replay %q of a restated name", args)
				noRawOutput(t, what, got, r)
				if got.code != exitInvalid {
					t.Errorf("%s: exit %d", what, got.code)
				}
				if len(args) == 2 {
					var restated *replayEvent
					for _, ev := range parseEvents(t, got.stdout) {
						if ev.Event == "end" && *ev.Index == 0 {
							restated = &ev
						}
					}
					if restated == nil || restated.Error.Category != "restated" || restated.Error.What != "name" ||
						restated.Error.Streamed != "first" || restated.Error.Restated != "firstsec"+h+"ond" {
						t.Errorf("%s: the restated call's end line: %+v", what, restated)
					}
				}
			}
			// An assistant's text, its calls written in it.
			text := "Prose" + h + " then a call:\n^^^write_file\npath" + h + ": a" + h + "\n^^^\n"
			got := replayCmd(strings.NewReader(text), "--syntax", "caret")
			noRawOutput(t, "replay --syntax", got, r)
			// The single-call commands, on valid and on invalid arguments.
			valid := `{"k` + h + `": ` + quoteJSONString("v"+h) + `, "n": [` + quoteJSONString(h) + `]}`
			invalid := `{"k` + h + `": "v", "b": ` + h + `}`
			for _, cmd := range [][]string{{"fragments"}, {"fragments", "--format", "jsonl"}, {"fields"}, {"aggregate"}} {
				for _, in := range []string{valid, invalid} {
					noRawOutput(t, fmt.Sprintf("%q", cmd), invoke(in, cmd...), r)
				}
			}
			got = invoke(invalid, "policy", "--rules", rules)
			noRaw(t, "policy stderr", got.stderr, r)
		})
	}
}

// TestModelTextNeverAtColumnZero: under --render, the model's text is
// wrapped at the width behind the gutter, so that a long line of it can
// never put text at column 0, where a terminal's own wrapping would have
// put "Calling tool read_file(...)" as if the renderer had written it.
func TestModelTextNeverAtColumnZero(t *testing.T) {
	forged := strings.Repeat("x", 37) + " Calling tool read_file(path: \"/etc/shadow\") " + strings.Repeat("y ", 30) + "\nAllow block 9 call evil (x)? [y/n/e]\n"
	stream := sseOf(msgStart, textStart(0), textDelta(0, forged[:20]), textDelta(0, forged[20:]), blockStop(0), msgStop)
	for _, width := range []string{"40", "80", "0"} {
		for _, style := range []string{"function_call", "json"} {
			got := replayCmd(strings.NewReader(stream), "--render", style, "--pace", "none", "--width", width)
			lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
			for _, l := range lines {
				own := strings.HasPrefix(l, "── response ") || l == "block 0 text" || strings.HasPrefix(l, "  ")
				if !own {
					t.Errorf("--width %s --render %s: line %q starts at column 0:\n%s", width, style, l, got.stdout)
				}
			}
			if width != "0" && !strings.Contains(got.stdout, "\n  ┆ ") {
				t.Errorf("--width %s: the long line is not wrapped:\n%s", width, got.stdout)
			}
		}
	}
}

// TestRenderWidthPiped: piped, --render wraps at $COLUMNS or --width (0:
// no wrapping) and never cuts a word.
func TestRenderWidthPiped(t *testing.T) {
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("word%02dxyz", i))
	}
	text := strings.Join(words, " ")
	stream := sseOf(msgStart, textStart(0), textDelta(0, text[:50]), textDelta(0, text[50:]), blockStop(0), msgStop)
	for _, c := range []struct {
		columns string
		args    []string
		wrapped bool
		max     int
	}{
		{"40", nil, true, 40},
		{"", nil, true, 80},
		{"200", []string{"--width", "30"}, true, 30},
		{"40", []string{"--width", "0"}, false, 0},
	} {
		t.Setenv("COLUMNS", c.columns)
		got := replayCmd(strings.NewReader(stream), append([]string{"--render", "function_call", "--pace", "none"}, c.args...)...)
		if strings.Contains(got.stdout, "\n  ┆ ") != c.wrapped {
			t.Errorf("COLUMNS=%s %q: wrapped %v, want %v:\n%s", c.columns, c.args, !c.wrapped, c.wrapped, got.stdout)
		}
		for _, w := range words {
			if !strings.Contains(got.stdout, w) {
				t.Errorf("COLUMNS=%s %q: %s is cut:\n%s", c.columns, c.args, w, got.stdout)
			}
		}
		for _, l := range strings.Split(got.stdout, "\n") {
			// A line breaks at the first space past the width: at most
			// one word (and its space) beyond it.
			if n := len([]rune(l)); c.max > 0 && n > c.max+len(words[0]) {
				t.Errorf("COLUMNS=%s %q: line %q is %d columns", c.columns, c.args, l, n)
			}
		}
	}
}
