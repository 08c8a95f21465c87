package wire

import (
	"testing"

	"github.com/argstream/argstream/wire/sse"
)

func TestOfPath(t *testing.T) {
	for p, want := range map[string]Kind{
		"/v1/messages":                   Anthropic,
		"/v1/messages?beta=true":         Anthropic,
		"//v1//messages/":                Anthropic,
		"/v1/./messages":                 Anthropic,
		"/proxy/anthropic/v1/messages#x": Anthropic,
		"/v1/MESSAGES":                   Anthropic,
		"/v1/messages/count_tokens":      Unknown,
		"/v1/messages/batches":           Unknown,
		"/v1/chat/completions":           OpenAIChat,
		"/openai/deployments/gpt/chat/completions?api-version=2024-10-21": OpenAIChat,
		"/v1/chat//completions/": OpenAIChat,
		"/v1/responses":          OpenAIResponses,
		"/v1/responses/":         OpenAIResponses,
		"/v1/responses/resp_1":   Unknown,
		"/v1/models":             Unknown,
		"":                       Unknown,
		"/v1/x/../messages":      Anthropic,
		"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse":         Gemini,
		"/v1/projects/p/locations/l/publishers/google/models/m:generateContent": Gemini,
		"/v1beta/models/gemini-2.5-flash:countTokens":                           Unknown,
		"/api/chat": Ollama,
		"/model/anthropic.claude-sonnet-4-5/converse-stream": Bedrock,
		"/api/generate":        Unknown,
		"/v2/chat":             Cohere,
		"/v2/chat/":            Cohere,
		"/v1/chat":             Unknown,
		"/v2/chat/completions": OpenAIChat,
	} {
		if got := OfPath(p); got != want {
			t.Errorf("OfPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestOfEvent(t *testing.T) {
	for _, tc := range []struct {
		typ, data string
		want      Kind
	}{
		{"message_start", `{}`, Anthropic},
		{"", `{"type":"content_block_delta","index":0}`, Anthropic},
		{"", `{"type":"ping"}`, Anthropic},
		{"error", `{"type":"error","error":{"type":"overloaded_error"}}`, Anthropic},
		{"", `{"type":"error","message":"m","code":"c"}`, OpenAIResponses},
		{"response.created", `{}`, OpenAIResponses},
		{"", `{"type":"response.output_text.delta"}`, OpenAIResponses},
		{"", `{"id":"c","object":"chat.completion.chunk","choices":[]}`, OpenAIChat},
		{"", `{"choices":[{"index":0}]}`, OpenAIChat},
		{"", `{"error":{"message":"m"}}`, OpenAIChat},
		{"", `[DONE]`, OpenAIChat},
		{"", `{"candidates":[{"content":{"parts":[{"text":"hi"}]}}],"modelVersion":"m"}`, Gemini},
		// Google's error, with its status; OpenAI's has none.
		{"", `{"error":{"code":429,"message":"Resource exhausted.","status":"RESOURCE_EXHAUSTED"}}`, Gemini},
		{"", `{"error":{"message":"m","type":"server_error","param":null,"code":null}}`, OpenAIChat},
		// A prompt blocked: its one event has no candidates.
		{"", `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":9},"modelVersion":"m"}`, Gemini},
		{"", `{"model":"qwen3","created_at":"t","message":{"role":"assistant","content":"hi"},"done":false}`, Ollama},
		{"", `{"model":"qwen3","message":"not an object","done":false}`, Unknown},
		{"", `{"type":"future"}`, Unknown},
		{"tool-call-delta", `{"type":"tool-call-delta","index":0}`, Cohere},
		{"", `{"id":"m1","type":"message-start","delta":{"message":{"role":"assistant"}}}`, Cohere},
		{"", `{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"hi"}}}}`, Cohere},
		{"", `{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will"}}}`, Cohere},
		{"", `{"type":"message-end","delta":{"finish_reason":"COMPLETE"}}`, Cohere},
		{"", `{"type":"debug"}`, Unknown},
		{"", `not json`, Unknown},
		{"error", `{"message":"m"}`, Unknown},
	} {
		if got := OfEvent(sse.Event{Type: []byte(tc.typ), Data: []byte(tc.data)}); got != tc.want {
			t.Errorf("OfEvent(%q, %s) = %v, want %v", tc.typ, tc.data, got, tc.want)
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range []Kind{Anthropic, OpenAIChat, OpenAIResponses, Gemini, Ollama, Bedrock, Cohere} {
		if got, err := ParseKind(k.String()); got != k || err != nil {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKind("unknown"); err == nil {
		t.Error("ParseKind(unknown) succeeded")
	}
}
