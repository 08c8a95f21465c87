package testutil

import "encoding/json"

// ChatChunk is the part of a Chat Completions chat.completion.chunk (the
// JSON of one SSE data line) that tool calls and text need. Tests decode
// recordings into it with encoding/json, independently of
// wire/openaistream, to compute what a recording holds.
type ChatChunk struct {
	Error   json.RawMessage `json:"error"`
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content          *string `json:"content"`
			Refusal          *string `json:"refusal"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"`
			ToolCalls        []struct {
				Index    int64  `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}
