// Package wirecount counts the argument deltas of a provider's streamed
// response, for the benchmarks that report costs per delta (argstream
// bench --wire, and the bench module). It decodes with reflection and is
// not meant for the hot path.
package wirecount

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The wires, as the command line names them.
const (
	Anthropic = "anthropic"
	Chat      = "openai-chat"
	Responses = "openai-responses"
)

// Deltas counts the argument delta events of the first response of wire in
// stream, up to its end (message_stop, data: [DONE], or
// response.completed, failed or incomplete), empty deltas included: an
// Anthropic input_json_delta, a Chat Completions tool call's
// function.arguments in a chunk, a Responses
// response.function_call_arguments.delta. A stream cut short is counted as
// far as it goes; the adapters report it.
func Deltas(wire string, stream []byte) (int, error) {
	switch wire {
	case Anthropic, Chat, Responses:
	default:
		return 0, fmt.Errorf("unknown wire %q", wire)
	}
	rd := sse.NewReader(bytes.NewReader(stream))
	n := 0
	for rd.Next() {
		ev := rd.Event()
		if ev.IsDone() {
			break
		}
		var v struct {
			Type    string         `json:"type"`
			Delta   jsontext.Value `json:"delta"` // an object (Anthropic) or a string (Responses)
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct {
							Arguments *string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(ev.Data, &v); err != nil {
			return 0, fmt.Errorf("event data %.40q: %v", ev.Data, err)
		}
		switch wire {
		case Anthropic:
			if v.Type == "message_stop" {
				return n, nil
			}
			var delta struct {
				Type string `json:"type"`
			}
			if v.Type == "content_block_delta" && json.Unmarshal(v.Delta, &delta) == nil && delta.Type == "input_json_delta" {
				n++
			}
		case Chat:
			for _, c := range v.Choices {
				for _, tc := range c.Delta.ToolCalls {
					if tc.Function.Arguments != nil {
						n++
					}
				}
			}
		case Responses:
			switch v.Type {
			case "response.function_call_arguments.delta":
				n++
			case "response.completed", "response.failed", "response.incomplete":
				return n, nil
			}
		}
	}
	// A recording may end without the blank line of its last event.
	if err := rd.Err(); err != nil && !errors.Is(err, sse.ErrTruncated) {
		return 0, err
	}
	return n, nil
}
