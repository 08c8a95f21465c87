package wire

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
)

// Kind is a provider wire.
type Kind uint8

// The wires.
const (
	Unknown         Kind = iota
	Anthropic            // Anthropic Messages: package anthropicstream
	OpenAIChat           // OpenAI Chat Completions: openaistream.ReadChat
	OpenAIResponses      // OpenAI Responses: openaistream.ReadResponses
	Gemini               // Google's Gemini API, streamGenerateContent?alt=sse: package geministream
	Ollama               // Ollama's /api/chat, JSON lines: package ollamastream
	Bedrock              // Amazon Bedrock's ConverseStream, AWS event stream frames: package bedrockstream
	Cohere               // Cohere's v2 chat stream, /v2/chat: package coherestream
)

var kindNames = [...]string{Unknown: "unknown", Anthropic: "anthropic", OpenAIChat: "openai-chat", OpenAIResponses: "openai-responses", Gemini: "gemini", Ollama: "ollama", Bedrock: "bedrock", Cohere: "cohere"}

// String returns the wire's name as the command's --wire flag spells it:
// "anthropic", "openai-chat", "openai-responses", "gemini", "ollama",
// "bedrock", "cohere", or "unknown".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind returns the [Kind] named s, as [Kind.String] spells it.
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames {
		if k != int(Unknown) && name == s {
			return Kind(k), nil
		}
	}
	return Unknown, fmt.Errorf("wire: unknown wire %q (want anthropic, openai-chat, openai-responses, gemini, ollama, bedrock or cohere)", s)
}

// OfPath returns the wire of a request to the HTTP path p: the last
// elements of p name the endpoint, wherever the API is mounted (a proxy
// prefix, Azure's deployments) and however the path is spelled (doubled
// or trailing slashes, dot elements, a query string or a fragment, which
// are ignored):
//
//   - .../messages: [Anthropic] (not .../messages/count_tokens, nor
//     .../messages/batches, which return no stream of calls);
//   - .../chat/completions: OpenAI Chat Completions;
//   - .../responses: the OpenAI Responses API (not .../responses/ID and
//     the like);
//   - .../models/MODEL:streamGenerateContent and :generateContent: [Gemini];
//   - .../api/chat: [Ollama];
//   - .../model/MODEL/converse-stream: [Bedrock];
//   - .../v2/chat: [Cohere].
//
// Any other path is [Unknown]: a gateway must then tell the wire from the
// response itself ([OfEvent]), since the same wire may be served elsewhere.
func OfPath(p string) Kind {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p = strings.ToLower(path.Clean("/" + p))
	switch {
	case strings.HasSuffix(p, "/messages"):
		return Anthropic
	case strings.HasSuffix(p, "/chat/completions"):
		return OpenAIChat
	case strings.HasSuffix(p, "/responses"):
		return OpenAIResponses
	case strings.HasSuffix(p, ":streamgeneratecontent") || strings.HasSuffix(p, ":generatecontent"):
		return Gemini
	case strings.HasSuffix(p, "/api/chat"):
		return Ollama
	case strings.HasSuffix(p, "/converse-stream"):
		return Bedrock
	case strings.HasSuffix(p, "/v2/chat"):
		return Cohere
	}
	return Unknown
}

// anthropicTypes are the event types only Anthropic's Messages stream has.
var anthropicTypes = []string{"message_start", "message_delta", "message_stop", "ping"}

// cohereTypes are the event types of Cohere's v2 chat stream: hyphenated,
// where Anthropic's have an underscore.
var cohereTypes = []string{"message-start", "content-start", "content-delta", "content-end", "tool-plan-delta",
	"tool-call-start", "tool-call-delta", "tool-call-end", "citation-start", "citation-end", "message-end"}

// OfEvent tells the wire of a stream from one of its events, or returns
// [Unknown]:
//
//   - [Anthropic]: an Anthropic event type (message_start, content_block_*,
//     ping...) in the event field or the data's "type", or an error event
//     {"type": "error", "error": {...}};
//   - [OpenAIResponses]: a type starting with "response.", or an error event
//     {"type": "error", "message": ...} without an "error" object;
//   - [OpenAIChat]: data with "object": "chat.completion.chunk", a
//     "choices" member, an {"error": {...}} without a "type" (nor a
//     "status"), or [DONE];
//   - [Gemini]: data with a "candidates" member and no "choices", with a
//     "promptFeedback" member (a prompt blocked: no candidates), or an
//     {"error": {...}} with a "status", as Google's APIs write them;
//   - [Ollama]: data (one JSON line of Ollama's stream) with a "message"
//     object and a "done" member, and no "type";
//   - [Cohere]: a Cohere v2 chat event type (message-start, content-delta,
//     tool-plan-delta, tool-call-start...) in the event field or the data's
//     "type".
//
// An "error" event type alone tells nothing: both Anthropic and the
// Responses API send it.
func OfEvent(ev sse.Event) Kind {
	if k := ofType(ev.Type); k != Unknown {
		return k
	}
	if ev.IsDone() {
		return OpenAIChat
	}
	var d adapter.Decoder
	var typ, object []byte
	var hasType, hasChoices, hasCandidates, hasFeedback, hasMessage, hasDone bool
	var errKind byte
	var googleErr bool
	d.Reset(ev.Data)
	err := d.Root(nil, func(key []byte) (err error) {
		switch string(key) {
		case "type":
			typ, err = d.String(typ)
			hasType = err == nil
		case "object":
			object, _, err = d.NullableString(object)
		case "choices":
			hasChoices = true
			err = d.Skip()
		case "candidates":
			hasCandidates = true
			err = d.Skip()
		case "promptFeedback":
			hasFeedback = true
			err = d.Skip()
		case "message":
			hasMessage = d.Kind() == '{'
			err = d.Skip()
		case "done":
			hasDone = true
			err = d.Skip()
		case "error":
			if errKind = byte(d.Kind()); errKind != '{' {
				return d.Skip()
			}
			err = d.Object(nil, func(key []byte) error {
				// Google's APIs' errors have a status (RESOURCE_EXHAUSTED),
				// OpenAI's a type.
				googleErr = googleErr || string(key) == "status"
				return d.Skip()
			})
		default:
			err = d.Skip()
		}
		return err
	})
	switch {
	case err != nil:
		return Unknown
	case hasType && string(typ) == "error":
		if errKind == '{' {
			return Anthropic
		}
		return OpenAIResponses
	case hasType:
		return ofType(typ)
	case googleErr && !hasChoices:
		return Gemini
	case string(object) == "chat.completion.chunk" || hasChoices || errKind == '{':
		return OpenAIChat
	case hasCandidates || hasFeedback:
		return Gemini
	case hasMessage && hasDone:
		return Ollama
	}
	return Unknown
}

func ofType(t []byte) Kind {
	switch {
	case bytes.HasPrefix(t, []byte("content_block_")):
		return Anthropic
	case bytes.HasPrefix(t, []byte("response.")):
		return OpenAIResponses
	}
	for _, a := range anthropicTypes {
		if string(t) == a {
			return Anthropic
		}
	}
	for _, c := range cohereTypes {
		if string(t) == c {
			return Cohere
		}
	}
	return Unknown
}
