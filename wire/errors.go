package wire

import (
	"errors"
	"strings"
)

// ErrMalformed is wrapped by the error of an event that is not what the
// provider documents, or that two readers of the stream (the official SDKs
// among them) could read differently: each adapter's documentation says
// which. The adapter has then failed the whole response
// (toolcall.Response.Fail): no call of it is executable.
//
// It is one sentinel for every wire: anthropicstream.ErrMalformed and
// openaistream.ErrMalformed are this value, so [errors.Is] matches any of the
// three. Its text has no prefix: the adapters' errors that wrap it begin
// with the wire's name and say which event, "anthropic: malformed event:
// event 3: ...", as io.ErrUnexpectedEOF is wrapped.
var ErrMalformed = errors.New("malformed event")

// ProviderError is an error the provider sent in the stream, after the
// response had begun: Anthropic's error event (overloaded_error,
// api_error...), Chat Completions' {"error": {...}} data, the Responses
// API's error and response.failed events. Its fields are the provider's,
// those it sent: [ProviderError.Code] is the code's JSON text when it is not
// a string (some servers send numbers); Anthropic sends no Code or
// [ProviderError.Param]. An error event whose data is not JSON has the data
// as its Message.
type ProviderError struct {
	Wire    Kind // the wire it came on
	Type    string
	Code    string
	Message string
	Param   string
}

// Error returns the error as each adapter has always written it:
// "anthropic: error event: TYPE: MESSAGE" on Anthropic, and "openai: error
// event: TYPE: CODE: MESSAGE" on the OpenAI wires ("gemini: ...",
// "ollama: ...", "bedrock: ...", "cohere: ..." on theirs), without the TYPE or CODE that is empty.
func (e *ProviderError) Error() string {
	if e.Wire == Anthropic {
		return "anthropic: error event: " + e.Type + ": " + e.Message
	}
	var b strings.Builder
	switch e.Wire {
	case OpenAIChat, OpenAIResponses:
		b.WriteString("openai")
	case Gemini, Ollama, Bedrock, Cohere:
		b.WriteString(e.Wire.String())
	default:
		b.WriteString("wire")
	}
	b.WriteString(": error event")
	for _, s := range []string{e.Type, e.Code} {
		if s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}
