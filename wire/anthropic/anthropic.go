package anthropic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/toolcall"
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

var decOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true)}

var errUnexpectedEnd = fmt.Errorf("anthropic: stream ended before message_stop: %w", io.ErrUnexpectedEOF)

type reader struct {
	cfg  config
	resp *toolcall.Response
	sse  *sse.Reader
	br   bytes.Reader
	dec  jsontext.Decoder

	// The fields of the event being read; byte slices are reused.
	key       []byte
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

func (r *reader) run(ctx context.Context) error {
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !r.sse.Next() {
			break
		}
		n++
		ev := r.sse.Event()
		done, err := r.event(ev)
		if err != nil {
			if errors.Is(err, ErrMalformed) {
				return fmt.Errorf("%w: event %d: %w", ErrMalformed, n, err)
			}
			return err
		}
		if done {
			return nil
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err := r.sse.Err()
	switch {
	case err == nil:
		return errUnexpectedEnd
	case errors.Is(err, sse.ErrTruncated):
		return fmt.Errorf("anthropic: stream ended before message_stop: %w: %w", io.ErrUnexpectedEOF, err)
	default:
		return fmt.Errorf("anthropic: %w", err)
	}
}

// event handles one event and reports whether it was message_stop.
func (r *reader) event(ev sse.Event) (done bool, err error) {
	switch string(ev.Type) {
	case "message_stop":
		return true, nil
	case "error":
		if err := r.parse(ev.Data); err != nil {
			return false, &ProviderError{Type: "", Message: string(ev.Data)}
		}
		return false, r.providerError()
	case "content_block_start", "content_block_delta", "content_block_stop", "":
		if err := r.parse(ev.Data); err != nil {
			return false, err
		}
	default: // message_start, message_delta, ping, and events to come
		return false, nil
	}
	kind := ev.Type
	if len(kind) == 0 {
		kind = r.typ
	}
	switch string(kind) {
	case "content_block_start":
		if !r.hasIndex {
			return false, errNoIndex
		}
		switch string(r.blockType) {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			return false, r.resp.Start(r.index, string(r.id), string(r.name), r.input)
		}
	case "content_block_delta":
		if !r.hasIndex {
			return false, errNoIndex
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
			return false, errNoIndex
		}
		return false, r.resp.Stop(r.index)
	case "message_stop":
		return true, nil
	case "error":
		return false, r.providerError()
	}
	return false, nil
}

func (r *reader) providerError() error {
	return &ProviderError{Type: string(r.errType), Message: string(r.errMsg)}
}

var (
	errNoIndex  = fmt.Errorf("%w: no index", ErrMalformed)
	errNotObj   = fmt.Errorf("%w: not a JSON object", ErrMalformed)
	errKind     = fmt.Errorf("%w: a field of the wrong kind", ErrMalformed)
	errBadIndex = fmt.Errorf("%w: the index is not an integer from 0", ErrMalformed)
	errTrailing = fmt.Errorf("%w: bytes after the JSON object", ErrMalformed)
)

// parse decodes the fields of one event's data into r.
func (r *reader) parse(data []byte) error {
	r.typ = r.typ[:0]
	r.index, r.hasIndex = 0, false
	r.blockType, r.id, r.name, r.input = r.blockType[:0], r.id[:0], r.name[:0], r.input[:0]
	r.deltaType, r.str, r.hasStr = r.deltaType[:0], r.str[:0], false
	r.errType, r.errMsg = r.errType[:0], r.errMsg[:0]

	r.br.Reset(data)
	r.dec.Reset(&r.br, decOpts...)
	if err := r.open(); err != nil {
		return err
	}
	for {
		more, err := r.nextKey()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		switch string(r.key) {
		case "type":
			r.typ, err = r.readString(r.typ)
		case "index":
			err = r.readIndex()
		case "content_block":
			err = r.object(r.blockField)
		case "delta":
			err = r.object(r.deltaField)
		case "error":
			err = r.object(r.errorField)
		default:
			err = r.dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	if _, err := r.dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errTrailing
		}
		return malformed(err)
	}
	return nil
}

func malformed(err error) error {
	if errors.Is(err, ErrMalformed) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}

// open reads the '{' of an object.
func (r *reader) open() error {
	if r.dec.PeekKind() != '{' {
		if _, err := r.dec.ReadToken(); err != nil {
			return malformed(err)
		}
		return errNotObj
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return malformed(err)
	}
	return nil
}

// nextKey reads the next name of the object into r.key, or its '}'.
func (r *reader) nextKey() (bool, error) {
	if r.dec.PeekKind() == '}' {
		_, err := r.dec.ReadToken()
		return false, malformedOrNil(err)
	}
	v, err := r.dec.ReadValue()
	if err != nil {
		return false, malformed(err)
	}
	r.key, err = jsontext.AppendUnquote(r.key[:0], v)
	return true, malformedOrNil(err)
}

func malformedOrNil(err error) error {
	if err == nil {
		return nil
	}
	return malformed(err)
}

// object reads an object value, calling field for each of its names; a null
// is taken as an empty object.
func (r *reader) object(field func() error) error {
	switch r.dec.PeekKind() {
	case 'n':
		return malformedOrNil(r.dec.SkipValue())
	case '{':
	default:
		if err := r.dec.SkipValue(); err != nil {
			return malformed(err)
		}
		return errKind
	}
	if err := r.open(); err != nil {
		return err
	}
	for {
		more, err := r.nextKey()
		if err != nil || !more {
			return err
		}
		if err := field(); err != nil {
			return err
		}
	}
}

func (r *reader) blockField() (err error) {
	switch string(r.key) {
	case "type":
		r.blockType, err = r.readString(r.blockType)
	case "id":
		r.id, err = r.readString(r.id)
	case "name":
		r.name, err = r.readString(r.name)
	case "input":
		var v jsontext.Value
		v, err = r.dec.ReadValue()
		if err == nil && v.Kind() != 'n' {
			r.input = append(r.input[:0], v...)
		}
	default:
		err = r.dec.SkipValue()
	}
	return malformedOrNil(err)
}

func (r *reader) deltaField() (err error) {
	switch string(r.key) {
	case "type":
		r.deltaType, err = r.readString(r.deltaType)
	case "partial_json", "text", "thinking":
		r.str, err = r.readString(r.str)
		r.hasStr = err == nil
	default:
		err = r.dec.SkipValue()
	}
	return malformedOrNil(err)
}

func (r *reader) errorField() (err error) {
	switch string(r.key) {
	case "type":
		r.errType, err = r.readString(r.errType)
	case "message":
		r.errMsg, err = r.readString(r.errMsg)
	default:
		err = r.dec.SkipValue()
	}
	return malformedOrNil(err)
}

// readString reads a string value, unquoted into dst[:0].
func (r *reader) readString(dst []byte) ([]byte, error) {
	v, err := r.dec.ReadValue()
	if err != nil {
		return dst[:0], malformed(err)
	}
	if v.Kind() != '"' {
		return dst[:0], errKind
	}
	dst, err = jsontext.AppendUnquote(dst[:0], v)
	return dst, malformedOrNil(err)
}

// readIndex reads a non-negative integer.
func (r *reader) readIndex() error {
	v, err := r.dec.ReadValue()
	if err != nil {
		return malformed(err)
	}
	if v.Kind() != '0' || len(v) == 0 {
		return errBadIndex
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return errBadIndex
		}
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return errBadIndex
		}
		n = n*10 + d
	}
	r.index, r.hasIndex = n, true
	return nil
}
