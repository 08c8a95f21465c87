package testutil

import "encoding/json"

// AnthropicEvent is the part of an Anthropic Messages stream event (the
// JSON of one SSE data line) that tool calls need. Tests decode recordings
// into it with encoding/json, independently of wire/anthropic, to drive a
// toolcall.Response as an SDK loop would or to compute the arguments a
// recording holds.
type AnthropicEvent struct {
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
}
