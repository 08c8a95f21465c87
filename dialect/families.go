package dialect

// This file describes the families of open-weight models whose calls are
// set off by markers (special tokens or tags): for each, what opens its
// calls in prose, what frames them, how its head names the call and what
// closes it. marked.go is the Reader's loop over them.

import (
	"bytes"
)

// Markers of the families, as their chat templates write them. The
// DeepSeek ones use U+FF5C (fullwidth vertical line) and U+2581 (lower one
// eighth block).
const (
	dsCallsBegin = "<｜tool▁calls▁begin｜>"
	dsCallsEnd   = "<｜tool▁calls▁end｜>"
	dsCallBegin  = "<｜tool▁call▁begin｜>"
	dsCallEnd    = "<｜tool▁call▁end｜>"
	dsSep        = "<｜tool▁sep｜>"

	kimiSection    = "<|tool_calls_section_begin|>"
	kimiSectionEnd = "<|tool_calls_section_end|>"
	// vLLM's and SGLang's Kimi parsers also take the singular spelling.
	kimiSection1    = "<|tool_call_section_begin|>"
	kimiSection1End = "<|tool_call_section_end|>"
	kimiCallBegin   = "<|tool_call_begin|>"
	kimiArgBegin    = "<|tool_call_argument_begin|>"
	kimiCallEnd     = "<|tool_call_end|>"

	dsmlCalls    = "<｜DSML｜function_calls>"
	dsmlCallsEnd = "</｜DSML｜function_calls>"
	dsmlTools    = "<｜DSML｜tool_calls>"
	dsmlToolsEnd = "</｜DSML｜tool_calls>"
	dsmlInvoke   = "<｜DSML｜invoke name=\""
	dsmlInvEnd   = "</｜DSML｜invoke>"

	mmSection    = "<minimax:tool_call>"
	mmSectionEnd = "</minimax:tool_call>"
	mmInvoke     = "<invoke name=\""
	mmInvEnd     = "</invoke>"

	toolCall    = "<tool_call>" // Hermes, GLM
	toolCallEnd = "</tool_call>"

	mistralCalls = "[TOOL_CALLS]"
	mistralArgs  = "[ARGS]"
	mistralID    = "[CALL_ID]"

	hmStart     = "<|start|>"
	hmChannel   = "<|channel|>"
	hmMessage   = "<|message|>"
	hmConstrain = "<|constrain|>"
	hmEnd       = "<|end|>"
	hmReturn    = "<|return|>"
	hmCall      = "<|call|>"
)

// shape is how a family's calls are laid out.
type shape uint8

const (
	shapeSection  shape = iota + 1 // opens open a section of calls, each opened by call, separated by white space
	shapeCall                      // opens open one call (GLM)
	shapeEnvelope                  // Hermes: <tool_call> {"name": ..., "arguments": {...}} </tool_call>
	shapeMistral                   // [TOOL_CALLS] then NAME[ARGS]{...} or a JSON array of envelopes
	shapeHarmony                   // gpt-oss messages: header <|message|> content end
)

// family is what the Reader needs to know of a marked syntax.
type family struct {
	shape  shape
	opens  []string // what opens framing in prose
	closes []string // shapeSection: the closing marker of each of opens
	call   string   // shapeSection: the marker that opens a call in the section
	term   string   // the call's head ends with term; "" for "\">"-less heads (GLM)
	closer string   // the call's closing marker ("" for Mistral's, which ends with its JSON)
	// tags: the call is fed its whole source, from its opening marker to
	// its closer, to a tokenizer of tags (token/glm, token/minimax,
	// token/dsml); otherwise it is fed its JSON arguments alone, and the
	// markers are the Reader's.
	tags bool
	// head reads a head, the bytes between call and term: the tool's name
	// and, if the syntax writes one, the call's id.
	head func(h []byte) (name, id []byte, ok bool)

	openFirst string     // the first bytes of opens
	sectFirst string     // shapeSection: the first bytes of call and closes
	closerSet []string   // closer, as the one marker to match
	sectSets  [][]string // shapeSection: call and the closer of each section
}

// prepare computes what the Reader matches, once, so that matching
// allocates nothing.
func (f *family) prepare() *family {
	f.openFirst = firstBytes(f.opens...)
	f.sectFirst = firstBytes(append([]string{f.call}, f.closes...)...)
	f.closerSet = []string{f.closer}
	if f.shape == shapeHarmony {
		f.closerSet = []string{hmCall, hmEnd} // Ollama's parser takes <|end|> too
	}
	for _, c := range f.closes {
		f.sectSets = append(f.sectSets, []string{f.call, c})
	}
	return f
}

// firstBytes returns the distinct first bytes of lits.
func firstBytes(lits ...string) string {
	var b []byte
	for _, l := range lits {
		if l != "" && bytes.IndexByte(b, l[0]) < 0 {
			b = append(b, l[0])
		}
	}
	return string(b)
}

var families = [...]*family{
	DeepSeekV3: (&family{shape: shapeSection, opens: []string{dsCallsBegin}, closes: []string{dsCallsEnd},
		call: dsCallBegin, term: "```json", closer: "```" + dsCallEnd, head: deepSeekV3Head}).prepare(),
	DeepSeekV31: (&family{shape: shapeSection, opens: []string{dsCallsBegin}, closes: []string{dsCallsEnd},
		call: dsCallBegin, term: dsSep, closer: dsCallEnd, head: plainHead}).prepare(),
	KimiK2: (&family{shape: shapeSection, opens: []string{kimiSection, kimiSection1}, closes: []string{kimiSectionEnd, kimiSection1End},
		call: kimiCallBegin, term: kimiArgBegin, closer: kimiCallEnd, head: kimiHead}).prepare(),
	DeepSeekDSML: (&family{shape: shapeSection, opens: []string{dsmlCalls, dsmlTools}, closes: []string{dsmlCallsEnd, dsmlToolsEnd},
		call: dsmlInvoke, term: "\">", closer: dsmlInvEnd, tags: true, head: plainHead}).prepare(),
	MiniMaxM2: (&family{shape: shapeSection, opens: []string{mmSection}, closes: []string{mmSectionEnd},
		call: mmInvoke, term: "\">", closer: mmInvEnd, tags: true, head: plainHead}).prepare(),
	GLM45:   (&family{shape: shapeCall, opens: []string{toolCall}, closer: toolCallEnd, tags: true}).prepare(),
	Hermes:  (&family{shape: shapeEnvelope, opens: []string{toolCall}, closer: toolCallEnd}).prepare(),
	Mistral: (&family{shape: shapeMistral, opens: []string{mistralCalls}, term: mistralArgs, head: mistralHead}).prepare(),
	Harmony: (&family{shape: shapeHarmony, opens: []string{hmStart, hmChannel}, term: hmMessage, closer: hmCall}).prepare(),
}

// isName reports whether name is a tool name: 1 to [MaxName] bytes of
// [A-Za-z0-9_.-].
func isName(name []byte) bool {
	return len(name) > 0 && len(name) <= MaxName && isDotted(name)
}

// plainHead is a head that is the name alone: DeepSeek V3.1's, and the
// name="F" of MiniMax's and DSML's invoke tags.
func plainHead(h []byte) (name, id []byte, ok bool) {
	return h, nil, isName(h)
}

// deepSeekV3Head reads DeepSeek V3's "function<｜tool▁sep｜>NAME\n".
func deepSeekV3Head(h []byte) (name, id []byte, ok bool) {
	rest, ok := bytes.CutPrefix(h, []byte("function"+dsSep))
	if !ok {
		return nil, nil, false
	}
	name, ok = bytes.CutSuffix(rest, []byte("\n"))
	return name, nil, ok && isName(name)
}

// kimiHead reads Kimi K2's call id, functions.NAME:IDX (JSON white space
// around it allowed, as vLLM's parser allows it): the id is all of it, the
// name NAME. An id without the "functions." prefix names the tool too.
func kimiHead(h []byte) (name, id []byte, ok bool) {
	id = bytes.Trim(h, " \t\r\n")
	i := bytes.LastIndexByte(id, ':')
	if i < 0 || i == len(id)-1 || !allDigits(id[i+1:]) {
		return nil, nil, false
	}
	name = id[:i]
	name, _ = bytes.CutPrefix(name, []byte("functions."))
	return name, id, isName(name)
}

// mistralHead reads Mistral's NAME or NAME[CALL_ID]ID, before [ARGS].
func mistralHead(h []byte) (name, id []byte, ok bool) {
	name, id, hasID := bytes.Cut(h, []byte(mistralID))
	if hasID && !isID(id) {
		return nil, nil, false
	}
	return name, id, isName(name)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0 && len(b) <= 20
}

// isID reports whether id is a call id as models write one: 1 to 64 of
// [A-Za-z0-9_-].
func isID(id []byte) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if charClass[c]&nameChar == 0 {
			return false
		}
	}
	return true
}

// harmonyHeader reads a gpt-oss message header, from its <|start|> or
// <|channel|> to before its <|message|>:
//
//	header = [ "<|start|>assistant" ] { " " | "<|channel|>" WORD | "to=" RECIPIENT | "<|constrain|>" WORD | WORD } .
//
// It returns the channel and the recipient (empty if none); ok is false for
// a header without a channel, another role than assistant, or anything
// else.
func harmonyHeader(h []byte) (channel, recipient []byte, ok bool) {
	if rest, isStart := bytes.CutPrefix(h, []byte(hmStart)); isStart {
		role, after, _ := cutWord(rest, isRoleByte)
		if string(role) != "assistant" {
			return nil, nil, false
		}
		h = after
	}
	for len(h) > 0 {
		var word []byte
		switch {
		case h[0] == ' ':
			h = h[1:]
			continue
		case bytes.HasPrefix(h, []byte(hmChannel)):
			if channel != nil {
				return nil, nil, false
			}
			channel, h, _ = cutWord(h[len(hmChannel):], isWordByte)
			if len(channel) == 0 {
				return nil, nil, false
			}
			continue
		case bytes.HasPrefix(h, []byte("to=")):
			if recipient != nil {
				return nil, nil, false
			}
			recipient, h, _ = cutWord(h[3:], isRecipientByte)
			if len(recipient) == 0 {
				return nil, nil, false
			}
			continue
		case bytes.HasPrefix(h, []byte(hmConstrain)):
			word, h, _ = cutWord(h[len(hmConstrain):], isWordByte)
		default:
			word, h, _ = cutWord(h, isWordByte)
		}
		if len(word) == 0 {
			return nil, nil, false
		}
	}
	return channel, recipient, channel != nil
}

// cutWord cuts the longest prefix of b whose bytes satisfy is.
func cutWord(b []byte, is func(byte) bool) (word, rest []byte, ok bool) {
	i := 0
	for i < len(b) && is(b[i]) {
		i++
	}
	return b[:i], b[i:], i > 0
}

func isRoleByte(c byte) bool { return 'a' <= c && c <= 'z' }

func isWordByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' }

func isRecipientByte(c byte) bool { return charClass[c]&dotted != 0 || c == ':' }

// harmonyName is the tool name of a recipient: functions.NAME names the
// tool NAME; any other recipient (a built-in tool, "browser.search") is
// the name as it is.
func harmonyName(recipient []byte) []byte {
	if name, ok := bytes.CutPrefix(recipient, []byte("functions.")); ok {
		return name
	}
	return recipient
}
