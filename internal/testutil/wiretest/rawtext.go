package wiretest

import "encoding/json"

// RawChatHead begins the chunks of RawChat: their id, object, created and
// model.
const RawChatHead = `{"id":"chatcmpl-raw","object":"chat.completion.chunk","created":1700000000,"model":"raw-model",`

// RawChat returns the data of the chunks of a Chat Completions stream as
// a server whose tool parser is off sends the text of a model: a first
// chunk with the role, one chunk per delta of content, one with
// finish_reason finish, and [DONE]. Frame them with DataSSE.
func RawChat(deltas []string, finish string) []string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	out := []string{RawChatHead + `"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`}
	for _, d := range deltas {
		out = append(out, RawChatHead+`"choices":[{"index":0,"delta":{"content":`+q(d)+`},"logprobs":null,"finish_reason":null}]}`)
	}
	out = append(out, RawChatHead+`"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":`+q(finish)+`}]}`, "[DONE]")
	return out
}

// RawChatWhole returns a whole chat.completion of the same text.
func RawChatWhole(text, finish string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `{"id":"chatcmpl-raw","object":"chat.completion","created":1700000000,"model":"raw-model","choices":[{"index":0,"message":{"role":"assistant","content":` +
		q(text) + `},"logprobs":null,"finish_reason":` + q(finish) + `}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`
}
