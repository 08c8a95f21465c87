package bench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	anthropicsdk "github.com/anthropics/anthropic-sdk-go"
	anthropicsse "github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/anthropicstream"
	"github.com/argstream/argstream/wire/openaistream"
	"github.com/argstream/argstream/wire/sse"
	openaisdk "github.com/openai/openai-go/v3"
	openaisse "github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

// A WireCall is one tool call of a response, as a contender delivers it.
type WireCall struct {
	Name string
	// Arguments is argstream's: the complete arguments as compact JSON
	// (memory of the contender, valid until its next Read).
	Arguments []byte
	// Value is an SDK's: the arguments decoded with json.Unmarshal into a
	// map, as a program that runs the tool does.
	Value map[string]any
	// Err is set if the arguments are not complete valid JSON (argstream:
	// the Result's Err; an SDK: json.Unmarshal's error).
	Err error
}

// A WireParser reads provider responses, one at a time.
type WireParser interface {
	// Read reads one response from its SSE body and returns its tool calls
	// in index order. The calls are valid until the next Read. An error is
	// the reader's (a stream cut short, a malformed event): the calls are
	// still those received.
	Read(body []byte) ([]WireCall, error)
}

// A WireContender is one way to read a wire.
type WireContender struct {
	Name string // "argstream", "argstream-policy", "argstream-new" or "sdk"
	New  func() WireParser
}

// WireContenders returns the contenders for wire: argstream's adapter
// (its reader, SSE reader and Response kept from response to response, as
// a server that reads many responses keeps them), the same with a policy,
// argstream's Read function, whose reader and SSE reader are new for each
// response (the Response kept), and the provider's official Go SDK, last.
// policy is the policy the second applies to every call, whatever its
// tool.
func WireContenders(wire string, pol *policy.Policy) []WireContender {
	var read readFunc
	var reader func(*toolcall.Response) eventReader
	var sdk func() WireParser
	switch wire {
	case WireAnthropic:
		read = func(ctx context.Context, r io.Reader, resp *toolcall.Response) error {
			return anthropicstream.Read(ctx, r, resp)
		}
		reader = func(resp *toolcall.Response) eventReader { return anthropicstream.NewReader(resp) }
		sdk = func() WireParser { return &anthropicSDK{} }
	case WireChat:
		read = func(ctx context.Context, r io.Reader, resp *toolcall.Response) error {
			return openaistream.ReadChat(ctx, r, resp)
		}
		reader = func(resp *toolcall.Response) eventReader { return openaistream.NewChatReader(resp) }
		sdk = func() WireParser { return &chatSDK{} }
	case WireResponses:
		read = func(ctx context.Context, r io.Reader, resp *toolcall.Response) error {
			return openaistream.ReadResponses(ctx, r, resp)
		}
		reader = func(resp *toolcall.Response) eventReader { return openaistream.NewResponsesReader(resp) }
		sdk = func() WireParser { return &responsesSDK{} }
	default:
		panic("unknown wire " + wire)
	}
	policyFor := func(string) *policy.Policy { return pol }
	return []WireContender{
		{Name: "argstream", New: func() WireParser { return newArgstreamParser(nil, reader) }},
		{Name: "argstream-policy", New: func() WireParser { return newArgstreamParser(nil, reader, toolcall.WithPolicy(policyFor)) }},
		{Name: "argstream-new", New: func() WireParser { return newArgstreamParser(read, nil) }},
		{Name: "sdk", New: sdk},
	}
}

// LoadPolicy reads the policy of the argstream-policy contender.
func LoadPolicy(path string) (*policy.Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, _, err := policy.Parse(data)
	return p, err
}

// PolicyFile is the policy the benchmark applies, from the bench directory:
// fs_create_file's, which decides as soon as /path is known (unattended
// under src/, ask otherwise).
const PolicyFile = "../testdata/policy/fs_create_file.rules.json"

type readFunc func(ctx context.Context, r io.Reader, resp *toolcall.Response) error

// eventReader is a wire adapter's reader of one stream's events, kept from
// stream to stream.
type eventReader interface {
	Reset(resp *toolcall.Response)
	ReadEvents(ctx context.Context, events *sse.Reader) error
}

// argstreamParser is argstream's whole path as a gateway runs it: the wire
// adapter reads the body (a bytes.Reader) and drives a toolcall.Response
// kept from response to response with Reset; End gives each call's
// aggregated compact arguments. The adapter is a reader kept with its SSE
// reader and Reset too, or, with read, the adapter's Read function, which
// makes them anew.
type argstreamParser struct {
	read   readFunc
	r      eventReader
	events *sse.Reader
	resp   *toolcall.Response
	body   bytes.Reader
	calls  []WireCall
}

// newArgstreamParser returns the parser of read, if not nil, or else of a
// reader of reader's.
func newArgstreamParser(read readFunc, reader func(*toolcall.Response) eventReader, opts ...toolcall.Option) *argstreamParser {
	p := &argstreamParser{read: read, resp: toolcall.New(opts...)}
	if read == nil {
		p.r, p.events = reader(p.resp), sse.NewReader(nil)
	}
	return p
}

func (p *argstreamParser) Read(body []byte) ([]WireCall, error) {
	p.resp.Reset()
	p.body.Reset(body)
	var err error
	if p.read != nil {
		err = p.read(context.Background(), &p.body, p.resp)
	} else {
		p.r.Reset(p.resp)
		p.events.Reset(&p.body)
		err = p.r.ReadEvents(context.Background(), p.events)
	}
	p.calls = p.calls[:0]
	for _, r := range p.resp.End() {
		// A call its policy asks about is complete and valid, its
		// arguments there; nobody approves it here, which is no error of
		// the parsing measured.
		err := r.Err
		if errors.Is(err, toolcall.ErrNotApproved) {
			err = nil
		}
		p.calls = append(p.calls, WireCall{Name: r.Call.Name, Arguments: r.Arguments, Err: err})
	}
	return p.calls, err
}

// eventStream is the *http.Response an SDK's NewStreaming gets from its
// transport: status 200, text/event-stream, the body.
func eventStream(body []byte) *http.Response {
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(body)),
	}
}

// unmarshalArgs is the SDK user's last step: the arguments text into a map.
func unmarshalArgs(name string, args []byte) WireCall {
	c := WireCall{Name: name}
	c.Err = json.Unmarshal(args, &c.Value)
	return c
}

// anthropicSDK is anthropic-sdk-go as client.Messages.NewStreaming reads a
// response: ssestream.NewDecoder on the *http.Response,
// ssestream.NewStream[MessageStreamEventUnion], Message.Accumulate of every
// event, then each tool block's Input unmarshalled.
type anthropicSDK struct{ calls []WireCall }

func (p *anthropicSDK) Read(body []byte) ([]WireCall, error) {
	stream := anthropicsse.NewStream[anthropicsdk.MessageStreamEventUnion](anthropicsse.NewDecoder(eventStream(body)), nil)
	defer stream.Close()
	var msg anthropicsdk.Message
	var err error
	for stream.Next() {
		if err = msg.Accumulate(stream.Current()); err != nil {
			break
		}
	}
	err = cmp.Or(err, stream.Err())
	p.calls = p.calls[:0]
	for _, b := range msg.Content {
		switch b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			p.calls = append(p.calls, unmarshalArgs(b.Name, b.Input))
		}
	}
	return p.calls, err
}

// chatSDK is openai-go as client.Chat.Completions.NewStreaming reads a
// response: ssestream.NewDecoder, ssestream.NewStream[ChatCompletionChunk],
// ChatCompletionAccumulator.AddChunk of every chunk, then the arguments of
// each tool call of choice 0 unmarshalled.
type chatSDK struct{ calls []WireCall }

func (p *chatSDK) Read(body []byte) ([]WireCall, error) {
	stream := openaisse.NewStream[openaisdk.ChatCompletionChunk](openaisse.NewDecoder(eventStream(body)), nil)
	defer stream.Close()
	var acc openaisdk.ChatCompletionAccumulator
	var err error
	for stream.Next() {
		if !acc.AddChunk(stream.Current()) {
			err = errors.New("ChatCompletionAccumulator.AddChunk refused a chunk")
			break
		}
	}
	err = cmp.Or(err, stream.Err())
	p.calls = p.calls[:0]
	if len(acc.Choices) > 0 {
		for _, tc := range acc.Choices[0].Message.ToolCalls {
			if tc.ID == "" && tc.Function.Name == "" && tc.Function.Arguments == "" {
				continue // the placeholder of a sparse index (a stream whose first index is 1)
			}
			p.calls = append(p.calls, unmarshalArgs(tc.Function.Name, []byte(tc.Function.Arguments)))
		}
	}
	return p.calls, err
}

// responsesSDK is openai-go as client.Responses.NewStreaming reads a
// response: ssestream.NewDecoder,
// ssestream.NewStream[responses.ResponseStreamEventUnion], and, since the
// SDK has no accumulator for these events (responses.ResponseAccumulator
// takes the WebSocket API's ResponsesServerEventUnion), the
// response.function_call_arguments.delta of each function_call item
// concatenated by output_index, then unmarshalled.
type responsesSDK struct{ calls []WireCall }

type responsesCall struct {
	index int64
	name  string
	args  strings.Builder
}

func (p *responsesSDK) Read(body []byte) ([]WireCall, error) {
	stream := openaisse.NewStream[responses.ResponseStreamEventUnion](openaisse.NewDecoder(eventStream(body)), nil)
	defer stream.Close()
	var calls []*responsesCall
	byIndex := map[int64]*responsesCall{}
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				c := &responsesCall{index: ev.OutputIndex, name: ev.Item.Name}
				calls = append(calls, c)
				byIndex[ev.OutputIndex] = c
			}
		case "response.function_call_arguments.delta":
			if c := byIndex[ev.OutputIndex]; c != nil {
				c.args.WriteString(ev.Delta)
			}
		}
	}
	err := stream.Err()
	slices.SortFunc(calls, func(a, b *responsesCall) int { return cmp.Compare(a.index, b.index) })
	p.calls = p.calls[:0]
	for _, c := range calls {
		p.calls = append(p.calls, unmarshalArgs(c.name, []byte(c.args.String())))
	}
	return p.calls, err
}

// ReadAll reads every part of s with p and returns the calls of all, each
// call's Arguments copied, and the first error with its part's name.
func ReadAll(p WireParser, s WireStream) ([]WireCall, error) {
	var all []WireCall
	var first error
	for i, part := range s.Parts {
		calls, err := p.Read(part)
		for _, c := range calls {
			c.Arguments = bytes.Clone(c.Arguments)
			all = append(all, c)
		}
		if err != nil && first == nil {
			what := s.Name
			if s.Files != nil {
				what = s.Files[i]
			}
			first = fmt.Errorf("%s: %w", what, err)
		}
	}
	return all, first
}
