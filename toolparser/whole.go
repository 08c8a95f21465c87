package toolparser

import (
	"errors"
	"fmt"

	"github.com/argstream/argstream/dialect"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Whole rewrites body, a whole Chat Completions response (a
// chat.completion, of a request without "stream": true) whose messages
// hold the raw text of a model that writes its tool calls in syntax, as a
// server that parses them writes it: in each choice, the message's content
// is the text's prose (null if it has none), its tool_calls the calls,
// each with an id, type "function", and its function's name and
// arguments (the JSON text of the arguments' values, typed by
// [WithTools]), and finish_reason is "tool_calls" if the message had
// calls. The response's other members are kept.
//
// A call that fails makes Whole return a [*CallError], and no response:
// see the package documentation. A message that already has tool_calls
// (the upstream's tool parser is on) is an error too.
func Whole(syntax dialect.Syntax, body []byte, opts ...Option) ([]byte, error) {
	var c, folded wholeCompletion
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("toolparser: the completion: %w", err)
	}
	// A member named as one Whole reads but in another case ("Content",
	// "Tool_calls") would be kept as it came, and read by a client that
	// matches names without case (encoding/json v1) in place of the one
	// Whole wrote: refused.
	err := json.Unmarshal(body, &folded, json.MatchCaseInsensitiveNames(true))
	a, _ := json.Marshal(&c)
	b, _ := json.Marshal(&folded)
	if err != nil || string(a) != string(b) {
		return nil, errors.New("toolparser: the completion has a member whose name differs from one Whole reads in case alone")
	}
	w := newWriter(syntax, nil, opts)
	for i := range c.Choices {
		ch := &c.Choices[i]
		m := &ch.Message
		if k := m.ToolCalls.Kind(); k != 0 && k != 'n' && string(m.ToolCalls) != "[]" {
			return nil, fmt.Errorf("toolparser: choice %d has tool_calls of its own: the upstream's tool parser must be off for the gateway to read the calls in the text", i)
		}
		w.Reset()
		if m.Content != nil {
			w.WriteString(*m.Content)
		}
		if err := w.Finish(ch.FinishReason); err != nil {
			return nil, fmt.Errorf("choice %d: %w", i, err)
		}
		m.Content, m.ToolCalls = nil, nil
		if len(w.msg.content) > 0 {
			s := string(w.msg.content)
			m.Content = &s
		}
		if len(w.msg.reasoning) > 0 { // harmony's analysis channel
			s := string(w.msg.reasoning)
			m.Reasoning = &s
		}
		if len(w.calls) > 0 {
			calls := make([]wholeCall, len(w.calls))
			for j, k := range w.calls {
				calls[j] = wholeCall{ID: k.id, Type: "function"}
				calls[j].Function.Name = k.name
				calls[j].Function.Arguments = string(w.msg.args[j])
			}
			m.ToolCalls, _ = json.Marshal(calls)
		}
		ch.FinishReason = w.finish
	}
	return json.Marshal(&c)
}

// wholeCompletion is a chat.completion: its choices, and the rest as it
// came.
type wholeCompletion struct {
	Choices []wholeChoice  `json:"choices"`
	Rest    jsontext.Value `json:",embed"`
}

// wholeChoice is a choice of a chat.completion: what Whole rewrites, and
// the rest as it came.
type wholeChoice struct {
	Index   int64 `json:"index"`
	Message struct {
		Role      string         `json:"role"`
		Content   *string        `json:"content"`
		Reasoning *string        `json:"reasoning_content,omitempty"`
		ToolCalls jsontext.Value `json:"tool_calls,omitempty"`
		Rest      jsontext.Value `json:",embed"`
	} `json:"message"`
	FinishReason string         `json:"finish_reason"`
	Rest         jsontext.Value `json:",embed"`
}

// wholeCall is a tool call of a whole message.
type wholeCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}
