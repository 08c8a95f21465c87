package anthropicstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json/jsontext"
)

// ErrMalformed is wrapped by the error Read returns for an event it must
// understand (content_block_start, content_block_delta, content_block_stop,
// or an event without an "event" field) whose data is not the JSON object
// the Messages API documents: not JSON, a missing or negative index, a
// field of the wrong kind.
var ErrMalformed = errors.New("anthropic: malformed event")

// ProviderError is an "error" event of the stream: the API failed after the
// response had begun (overloaded_error, api_error, ...). Type and Message
// are the provider's error.type and error.message.
type ProviderError struct {
	Type    string
	Message string
}

func (e *ProviderError) Error() string {
	return "anthropic: error event: " + e.Type + ": " + e.Message
}

// Option configures Read.
type Option func(*config)

type config struct {
	onText     func(index int64, text []byte)
	onThinking func(index int64, thinking []byte)
}

// OnText sets a function called with each text_delta: the content block's
// index and its text, decoded from JSON. The text is borrowed: it is valid
// only until fn returns (copy it, or convert it with string, to keep it).
func OnText(fn func(index int64, text []byte)) Option {
	return func(c *config) { c.onText = fn }
}

// OnThinking sets a function called with each thinking_delta of extended
// thinking: the block's index and its thinking text, borrowed as OnText's.
func OnThinking(fn func(index int64, thinking []byte)) Option {
	return func(c *config) { c.onThinking = fn }
}

// Read reads the server-sent events of an Anthropic Messages streaming
// response from body and drives resp with its tool calls, until
// message_stop. It does not call resp.End: the caller does, to get the
// Results. See the package documentation for the events read and the
// errors returned.
func Read(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...Option) error {
	r := &reader{resp: resp, sse: sse.NewReader(body)}
	for _, o := range opts {
		o(&r.cfg)
	}
	return r.run(ctx)
}

type reader struct {
	cfg  config
	resp *toolcall.Response
	sse  *sse.Reader
	dec  adapter.Decoder
	n    int64 // events read
	// respErr is an error of resp met while decoding an event (the calls
	// of message_start's content).
	respErr error
	evType  []byte // the event field of the event being read

	// The fields of the event being read; byte slices are reused.
	typ       []byte
	index     int64
	hasIndex  bool
	blockType []byte
	id        []byte
	name      []byte
	input     []byte
	deltaType []byte
	str       []byte // partial_json, text or thinking, unquoted
	hasStr    bool
	errType   []byte
	errMsg    []byte
}

var stream = adapter.Stream{Name: "anthropic", Last: "message_stop"}

func (r *reader) run(ctx context.Context) error {
	return adapter.Loop(ctx, r.sse, stream, func(ev sse.Event) (bool, error) {
		r.n++
		return r.event(ev)
	})
}

// event handles one event and reports whether it was message_stop.
func (r *reader) event(ev sse.Event) (done bool, err error) {
	r.evType = ev.Type
	switch string(ev.Type) {
	case "message_stop":
		return true, nil
	case "error":
		if err := r.parse(ev.Data); err != nil {
			return false, &ProviderError{Type: "", Message: string(ev.Data)}
		}
		return false, r.providerError()
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "":
		if err := r.parse(ev.Data); err != nil {
			return false, err
		}
		if r.respErr != nil {
			return false, r.respErr
		}
	default: // message_delta, ping, and events to come
		return false, nil
	}
	kind := ev.Type
	if len(kind) == 0 {
		kind = r.typ
	}
	switch string(kind) {
	case "content_block_start":
		if !r.hasIndex {
			return false, r.malformed(errNoIndex)
		}
		switch string(r.blockType) {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			return false, r.resp.Start(r.call(r.index), r.input)
		}
	case "content_block_delta":
		if !r.hasIndex {
			return false, r.malformed(errNoIndex)
		}
		if !r.hasStr {
			return false, nil
		}
		switch string(r.deltaType) {
		case "input_json_delta":
			return false, r.resp.Chunk(r.index, r.str)
		case "text_delta":
			if r.cfg.onText != nil {
				r.cfg.onText(r.index, r.str)
			}
		case "thinking_delta":
			if r.cfg.onThinking != nil {
				r.cfg.onThinking(r.index, r.str)
			}
		}
	case "content_block_stop":
		if !r.hasIndex {
			return false, r.malformed(errNoIndex)
		}
		return false, r.resp.Stop(r.index)
	case "message_stop":
		return true, nil
	case "error":
		return false, r.providerError()
	}
	return false, nil
}

// call is the identity of the tool block just read, at index.
func (r *reader) call(index int64) fragment.Call {
	return fragment.Call{Index: index, ID: string(r.id), Name: string(r.name), Server: string(r.blockType) != "tool_use"}
}

func (r *reader) providerError() error {
	return &ProviderError{Type: string(r.errType), Message: string(r.errMsg)}
}

var errNoIndex = errors.New("no index")

// malformed wraps err, found in the data of the current event.
func (r *reader) malformed(err error) error {
	return fmt.Errorf("%w: event %d: %w", ErrMalformed, r.n, err)
}

// parse decodes the fields of one event's data into r.
func (r *reader) parse(data []byte) error {
	r.typ, r.respErr = r.typ[:0], nil
	r.index, r.hasIndex = 0, false
	r.blockType, r.id, r.name, r.input = r.blockType[:0], r.id[:0], r.name[:0], r.input[:0]
	r.deltaType, r.str, r.hasStr = r.deltaType[:0], r.str[:0], false
	r.errType, r.errMsg = r.errType[:0], r.errMsg[:0]

	if r.fastDelta(data) {
		return nil
	}
	return r.parseSlow(data)
}

// parseSlow decodes data token by token with r.dec; parse has reset r's
// fields.
func (r *reader) parseSlow(data []byte) error {
	r.dec.Reset(data)
	if err := r.dec.Root(r.field); err != nil {
		return r.malformed(err)
	}
	return nil
}

// The bytes of the data of a content_block_delta event, as the API writes
// it: fastHead, the index, one of fastMids, the delta's string, "}", white
// space, "}", white space.
const fastHead = `{"type":"content_block_delta","index":`

// fastMids are the deltas with a fast path: the arguments' and the text's,
// which make up nearly all the events of a response.
var fastMids = [...]struct{ mid, typ string }{
	{`,"delta":{"type":"input_json_delta","partial_json":`, "input_json_delta"},
	{`,"delta":{"type":"text_delta","text":`, "text_delta"},
	{`,"delta":{"type":"thinking_delta","thinking":`, "thinking_delta"},
}

// fastDelta reads data, for parse, if it is laid out exactly as the API
// writes an input_json_delta, text_delta or thinking_delta event, comparing
// bytes rather than decoding tokens; the delta's string is unquoted by
// adapter.Unquote.
// It reports false, having set nothing, on any difference: then
// parseSlow reads data, and its answer is the answer. When it reports true,
// r holds what parseSlow would have read.
func (r *reader) fastDelta(data []byte) bool {
	if len(data) < len(fastHead) || string(data[:len(fastHead)]) != fastHead {
		return false
	}
	index, j, ok := adapter.Index(data, len(fastHead))
	if !ok {
		return false
	}
	k := 0
	for k < len(fastMids) && !bytes.HasPrefix(data[j:], []byte(fastMids[k].mid)) {
		k++
	}
	if k == len(fastMids) {
		return false
	}
	// The string is decoded into r.str's memory, but r.str stays empty
	// until the rest of the layout is checked.
	str, j := adapter.Unquote(r.str, data, j+len(fastMids[k].mid))
	r.str = str[:0]
	// "}", white space, "}", white space.
	if j < 0 || j >= len(data) || data[j] != '}' {
		return false
	}
	j = adapter.SkipSpace(data, j+1)
	if j >= len(data) || data[j] != '}' || adapter.SkipSpace(data, j+1) != len(data) {
		return false
	}
	r.str = str
	r.typ = append(r.typ[:0], "content_block_delta"...)
	r.index, r.hasIndex = index, true
	r.deltaType = append(r.deltaType[:0], fastMids[k].typ...)
	r.hasStr = true
	return true
}

func (r *reader) field(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.typ, err = r.dec.String(r.typ)
	case "index":
		r.index, err = r.dec.Index()
		r.hasIndex = err == nil
	case "content_block":
		err = r.dec.Object(r.blockField)
	case "message":
		err = r.dec.Object(r.messageField)
	case "delta":
		err = r.dec.Object(r.deltaField)
	case "error":
		err = r.dec.Object(r.errorField)
	default:
		err = r.dec.Skip()
	}
	return err
}

// messageField reads the message of message_start. Its content is empty
// but when a response continues a container's programmatic tool calls: then
// the tool calls the code made come whole in the content, with no
// content_block events, and each is a call, started and stopped at its
// position in the content.
func (r *reader) messageField(key []byte) error {
	if string(key) != "content" {
		return r.dec.Skip()
	}
	return r.dec.Array(func(i int) error {
		r.blockType, r.id, r.name, r.input = r.blockType[:0], r.id[:0], r.name[:0], r.input[:0]
		if err := r.dec.Object(r.blockField); err != nil {
			return err
		}
		if string(r.evType) != "message_start" && (len(r.evType) > 0 || string(r.typ) != "message_start") {
			return nil // a "message" member of another event
		}
		switch string(r.blockType) {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			if r.respErr == nil {
				r.respErr = r.resp.Start(r.call(int64(i)), r.input)
			}
			if r.respErr == nil {
				r.respErr = r.resp.Stop(int64(i))
			}
		}
		return nil
	})
}

func (r *reader) blockField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.blockType, err = r.dec.String(r.blockType)
	case "id":
		r.id, err = r.dec.String(r.id)
	case "name":
		r.name, err = r.dec.String(r.name)
	case "input":
		var v jsontext.Value
		v, err = r.dec.Value()
		if err == nil && v.Kind() != 'n' {
			r.input = append(r.input[:0], v...)
		}
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *reader) deltaField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.deltaType, err = r.dec.String(r.deltaType)
	case "partial_json", "text", "thinking":
		r.str, err = r.dec.String(r.str)
		r.hasStr = err == nil
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *reader) errorField(key []byte) (err error) {
	switch string(key) {
	case "type":
		r.errType, err = r.dec.String(r.errType)
	case "message":
		r.errMsg, err = r.dec.String(r.errMsg)
	default:
		err = r.dec.Skip()
	}
	return err
}
