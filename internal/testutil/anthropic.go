package testutil

import "encoding/json"

// AnthropicEvent is the part of an Anthropic Messages stream event (the
// JSON of one SSE data line) that tool calls and text need. Tests decode
// recordings into it with encoding/json, independently of wire/anthropic,
// to drive a toolcall.Response as an SDK loop would or to compute the
// arguments and text a recording holds.
type AnthropicEvent struct {
	Type         string         `json:"type"`
	Index        int64          `json:"index"`
	ContentBlock AnthropicBlock `json:"content_block"`
	// Message is message_start's message: its content holds whole blocks
	// when a response continues a container's programmatic tool calls.
	Message struct {
		Content []AnthropicBlock `json:"content"`
	} `json:"message"`
	Delta struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		StopReason  string `json:"stop_reason"` // message_delta's
	} `json:"delta"`
}

// AnthropicBlock is a content block of a stream event.
type AnthropicBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}
