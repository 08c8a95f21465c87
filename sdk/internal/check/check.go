// Package check gives the tests of the glue modules what they compare: each
// toolcall.Result summarized as an Outcome, and the Outcomes a recorded
// response body should give, computed with encoding/json from the body
// alone, independently of argstream and of the SDKs.
package check

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/toolcall"
)

// Outcome is what the tests compare of a toolcall.Result.
type Outcome struct {
	Index      int64
	ID, Name   string
	Arguments  string // compact JSON; "" if the call failed
	Server     bool   // the provider runs it: never executable
	Executable bool
	Declined   bool
	Truncated  bool // its error is token.ErrTruncated
	Syntax     bool // its error is another *token.SyntaxError
}

// Outcomes summarizes results.
func Outcomes(results []toolcall.Result) []Outcome {
	out := []Outcome{}
	for _, r := range results {
		var se *token.SyntaxError
		out = append(out, Outcome{
			Index:      int64(r.Call.Index),
			ID:         r.Call.ID,
			Name:       r.Call.Name,
			Arguments:  string(r.Arguments),
			Server:     r.Call.Server,
			Executable: r.Executable,
			Declined:   r.Declined,
			Truncated:  errors.Is(r.Err, token.ErrTruncated),
			Syntax:     errors.As(r.Err, &se) && !errors.Is(r.Err, token.ErrTruncated),
		})
	}
	return out
}

// Failed merges the two error kinds of outcomes into Truncated, for a
// comparison with expectations that cannot tell a truncated call from an
// invalid one (Chat Completions has no per-call end).
func Failed(outcomes []Outcome) []Outcome {
	out := slices.Clone(outcomes)
	for i := range out {
		out[i].Truncated = out[i].Truncated || out[i].Syntax
		out[i].Syntax = false
	}
	return out
}

// Canonical writes each outcome's arguments again with encoding/json (keys
// sorted, numbers as float64 writes them), for a comparison of arguments as
// JSON values: a glue that writes the arguments an SDK decoded into a map
// against a raw reader that keeps the model's bytes. It returns a copy; it
// fails t on arguments that are not JSON.
func Canonical(t testing.TB, outcomes []Outcome) []Outcome {
	t.Helper()
	out := slices.Clone(outcomes)
	for i, o := range out {
		if o.Arguments == "" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(o.Arguments), &v); err != nil {
			t.Fatalf("call %d: arguments %s: %v", o.Index, o.Arguments, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("call %d: arguments %s: %v", o.Index, o.Arguments, err)
		}
		out[i].Arguments = string(b)
	}
	return out
}

// call is one tool call of a body as encoding/json reads it.
type call struct {
	index    int64
	id, name string
	input    json.RawMessage // Anthropic's content_block_start input
	args     strings.Builder // the argument deltas, concatenated
	stopped  bool            // its per-call end came (Anthropic, Responses)
	server   bool            // a block of a tool the provider runs
}

type calls struct {
	byIndex map[int64]*call
}

func (cs *calls) get(index int64) *call {
	if cs.byIndex == nil {
		cs.byIndex = map[int64]*call{}
	}
	c := cs.byIndex[index]
	if c == nil {
		c = &call{index: index}
		cs.byIndex[index] = c
	}
	return c
}

// outcomes is what the calls should give. A call's arguments are its
// input, unless that is the placeholder {} (Anthropic), followed by its
// deltas; a call with no argument bytes has {} if the provider said so
// (input {}, then a stop) and is truncated otherwise. Arguments that are
// not valid JSON, or a call that needed its end and did not get it, fail.
func (cs *calls) outcomes(needStop bool) []Outcome {
	out := []Outcome{}
	for _, c := range cs.byIndex {
		text := c.args.String()
		placeholder := string(c.input) == "{}" // those two bytes, as anthropic-sdk-go takes them
		if len(c.input) > 0 && !placeholder {
			text = string(c.input) + text
		}
		if text == "" && placeholder && c.stopped {
			text = "{}"
		}
		o := Outcome{Index: c.index, ID: c.id, Name: c.name, Server: c.server}
		var buf bytes.Buffer
		if text != "" && (c.stopped || !needStop) && json.Compact(&buf, []byte(text)) == nil {
			o.Arguments, o.Executable = buf.String(), o.Name != "" && !c.server
		} else {
			o.Truncated = true
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b Outcome) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

func (c *call) identify(id, name string) {
	if c.id == "" {
		c.id = id
	}
	if c.name == "" {
		c.name = name
	}
}

// data calls fn with the data of each event of an SSE body (each "data:"
// line: the recordings have no multi-line data), until fn returns false.
func data(body []byte, fn func(data []byte) (more bool, err error)) error {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		if !ok {
			continue
		}
		more, err := fn(bytes.TrimPrefix(d, []byte(" ")))
		if err != nil || !more {
			return err
		}
	}
	return sc.Err()
}

// Anthropic is what an Anthropic Messages body should give: its tool
// blocks (tool_use, server_tool_use, mcp_tool_use), the input of their
// start, their input_json_deltas and their stop. Any failure is in
// Truncated (see Failed): a call that did not stop, or whose arguments are
// not valid JSON.
func Anthropic(body []byte) ([]Outcome, error) {
	var cs calls
	tools := map[int64]bool{}
	err := data(body, func(d []byte) (bool, error) {
		var ev struct {
			Type         string `json:"type"`
			Index        int64  `json:"index"`
			ContentBlock struct {
				Type  string          `json:"type"`
				ID    string          `json:"id"`
				Name  string          `json:"name"`
				Input json.RawMessage `json:"input"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
			Message struct { // whole blocks, when continuing programmatic tool calls
				Content []struct {
					Type  string          `json:"type"`
					ID    string          `json:"id"`
					Name  string          `json:"name"`
					Input json.RawMessage `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(d, &ev); err != nil {
			return false, err
		}
		switch ev.Type {
		case "message_start":
			for i, b := range ev.Message.Content {
				switch b.Type {
				case "tool_use", "server_tool_use", "mcp_tool_use":
					tools[int64(i)] = true
					c := cs.get(int64(i))
					c.identify(b.ID, b.Name)
					c.input, c.stopped, c.server = b.Input, true, b.Type != "tool_use"
				}
			}
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				tools[ev.Index] = true
				c := cs.get(ev.Index)
				c.identify(ev.ContentBlock.ID, ev.ContentBlock.Name)
				c.server = ev.ContentBlock.Type != "tool_use"
				if string(ev.ContentBlock.Input) != "null" {
					c.input = ev.ContentBlock.Input
				}
			}
		case "content_block_delta":
			if tools[ev.Index] && ev.Delta.Type == "input_json_delta" {
				cs.get(ev.Index).args.WriteString(ev.Delta.PartialJSON)
			}
		case "content_block_stop":
			if tools[ev.Index] {
				cs.get(ev.Index).stopped = true
			}
		}
		return true, nil
	})
	return cs.outcomes(true), err
}

// Chat is what the tool calls of choice of a Chat Completions body should
// give, read up to data: [DONE]: each call's first non-empty id and name
// and its arguments, concatenated. Chat Completions has no per-call end: a
// call fails (Truncated, see Failed) if its arguments are not valid JSON.
func Chat(body []byte, choice int64) ([]Outcome, error) {
	var cs calls
	err := data(body, func(d []byte) (bool, error) {
		if string(bytes.TrimSpace(d)) == "[DONE]" {
			return false, nil
		}
		var chunk struct {
			Choices []struct {
				Index int64 `json:"index"`
				Delta struct {
					ToolCalls []struct {
						Index    int64  `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(d, &chunk); err != nil {
			return false, err
		}
		for _, ch := range chunk.Choices {
			if ch.Index != choice {
				continue
			}
			for _, tc := range ch.Delta.ToolCalls {
				c := cs.get(tc.Index)
				c.identify(tc.ID, tc.Function.Name)
				c.args.WriteString(tc.Function.Arguments)
			}
		}
		return true, nil
	})
	return cs.outcomes(false), err
}

// Responses is what the function calls of a Responses API body should
// give: each function_call output item added, its
// response.function_call_arguments.delta events and its
// response.function_call_arguments.done, whose arguments must be the
// deltas' concatenation (else Responses returns an error). A call fails
// (Truncated, see Failed) if it did not end or its arguments are not valid
// JSON.
func Responses(body []byte) ([]Outcome, error) {
	var cs calls
	var mismatch error
	err := data(body, func(d []byte) (bool, error) {
		var ev struct {
			Type        string `json:"type"`
			OutputIndex int64  `json:"output_index"`
			Item        struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
				Name   string `json:"name"`
			} `json:"item"`
			Delta     string `json:"delta"`
			Arguments string `json:"arguments"`
		}
		if err := json.Unmarshal(d, &ev); err != nil {
			return false, err
		}
		switch ev.Type {
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				cs.get(ev.OutputIndex).identify(ev.Item.CallID, ev.Item.Name)
			}
		case "response.function_call_arguments.delta":
			cs.get(ev.OutputIndex).args.WriteString(ev.Delta)
		case "response.function_call_arguments.done":
			c := cs.get(ev.OutputIndex)
			c.stopped = true
			if ev.Arguments != c.args.String() && mismatch == nil {
				mismatch = errors.New("check: the arguments of a function_call_arguments.done are not its deltas'")
			}
		}
		return true, nil
	})
	if err == nil {
		err = mismatch
	}
	return cs.outcomes(true), err
}
