package bedrockstream

// The AWS event stream binary encoding: the prelude, the headers and the
// two CRCs of one message, checked before its payload is read, and the
// cutting of a body into messages with a buffer kept from message to
// message.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strings"
)

// MaxMessageSize is the largest message, prelude to message CRC, that [Read]
// and [Reader.Message] accept: a prelude that gives a larger total length is
// malformed, refused before anything of that size is allocated. The AWS
// SDKs' limit is 16 MiB of payload and 128 KiB of headers; Bedrock's events
// are a few hundred bytes.
const MaxMessageSize = 16 << 20

// maxHeaders is the most headers a message may have: Bedrock sends three or
// four, and a limit keeps the check for repeated names linear.
const maxHeaders = 64

const (
	preludeLen = 12 // total length, headers length, prelude CRC
	minMessage = preludeLen + 4
)

// The header value types of the encoding.
const (
	typeTrue uint8 = iota
	typeFalse
	typeByte
	typeShort
	typeInt
	typeLong
	typeBytes
	typeString
	typeTimestamp
	typeUUID
)

// The headers a Reader reads.
const (
	hMessageType   = ":message-type"
	hEventType     = ":event-type"
	hContentType   = ":content-type"
	hExceptionType = ":exception-type"
	hErrorCode     = ":error-code"
	hErrorMessage  = ":error-message"
)

var knownHeaders = [...]string{hMessageType, hEventType, hContentType, hExceptionType, hErrorCode, hErrorMessage}

// message is one decoded message: its headers of interest and its payload,
// borrowed from the bytes it was decoded from.
type message struct {
	// Each known header's string value, by its position in knownHeaders,
	// and whether it came.
	values [len(knownHeaders)][]byte
	has    [len(knownHeaders)]bool
	// names holds the offsets of every header's name in the message, to
	// find repeated names without allocating.
	names   [maxHeaders][2]uint32
	payload []byte
}

func (m *message) header(i int) ([]byte, bool) { return m.values[i], m.has[i] }

// checkPrelude checks the prelude p (12 bytes) and returns the message's
// total length.
func checkPrelude(p []byte) (total uint32, err error) {
	total = binary.BigEndian.Uint32(p[0:4])
	headers := binary.BigEndian.Uint32(p[4:8])
	if got, want := binary.BigEndian.Uint32(p[8:12]), crc32.ChecksumIEEE(p[:8]); got != want {
		return 0, fmt.Errorf("prelude CRC is %#08x, the prelude's is %#08x", got, want)
	}
	switch {
	case total < minMessage:
		return 0, fmt.Errorf("total length %d is less than the %d bytes of a prelude and a CRC", total, minMessage)
	case total > MaxMessageSize:
		return 0, fmt.Errorf("total length %d is over the limit of %d bytes", total, MaxMessageSize)
	case headers > total-minMessage:
		return 0, fmt.Errorf("headers length %d is over the %d bytes the total length %d leaves", headers, total-minMessage, total)
	}
	return total, nil
}

// decode decodes b, one whole message, into m: the CRCs, the lengths and
// every header are checked. The payload is not.
func decode(b []byte, m *message) error {
	if len(b) < preludeLen {
		return fmt.Errorf("%d bytes, shorter than a prelude", len(b))
	}
	total, err := checkPrelude(b[:preludeLen])
	if err != nil {
		return err
	}
	if int(total) != len(b) {
		return fmt.Errorf("total length %d, but the message has %d bytes", total, len(b))
	}
	end := len(b) - 4
	if got, want := binary.BigEndian.Uint32(b[end:]), crc32.ChecksumIEEE(b[:end]); got != want {
		return fmt.Errorf("message CRC is %#08x, the message's is %#08x", got, want)
	}
	hend := preludeLen + int(binary.BigEndian.Uint32(b[4:8]))
	// names is written before it is read: only the headers' values are
	// emptied, not the whole message (most of it names).
	m.values, m.has, m.payload = [len(knownHeaders)][]byte{}, [len(knownHeaders)]bool{}, b[hend:end]
	return m.headers(b, hend)
}

var errHeaderPastEnd = errors.New("runs past the end of the headers")

// headers decodes the headers of message b, which end at b[hend].
func (m *message) headers(b []byte, hend int) error {
	n := 0
	for i := preludeLen; i < hend; n++ {
		at := i
		fail := func(err error) error { return fmt.Errorf("header %d at byte %d: %w", n+1, at, err) }
		if n == maxHeaders {
			return fail(fmt.Errorf("more than %d headers", maxHeaders))
		}
		nameLen := int(b[i])
		i++
		if i+nameLen+1 > hend {
			return fail(errHeaderPastEnd)
		}
		name := b[i : i+nameLen]
		i += nameLen
		typ := b[i]
		i++
		for k := range n {
			if earlier := b[m.names[k][0]:m.names[k][1]]; bytes.Equal(earlier, name) {
				return fail(fmt.Errorf("%q repeats header %d", name, k+1))
			}
		}
		m.names[n] = [2]uint32{uint32(at + 1), uint32(at + 1 + nameLen)}
		size := 0
		switch typ {
		case typeTrue, typeFalse:
		case typeByte:
			size = 1
		case typeShort:
			size = 2
		case typeInt:
			size = 4
		case typeLong, typeTimestamp:
			size = 8
		case typeUUID:
			size = 16
		case typeBytes, typeString:
			if i+2 > hend {
				return fail(errHeaderPastEnd)
			}
			size = int(binary.BigEndian.Uint16(b[i:]))
			i += 2
		default:
			return fail(fmt.Errorf("%q has value type %d, which the encoding does not have", name, typ))
		}
		if i+size > hend {
			return fail(errHeaderPastEnd)
		}
		value := b[i : i+size]
		i += size
		if k := knownIndex(name); k >= 0 {
			if string(name) != knownHeaders[k] {
				return fail(fmt.Errorf("%q is %s in another case", name, knownHeaders[k]))
			}
			if typ != typeString {
				return fail(fmt.Errorf("%s has value type %d, not a string", name, typ))
			}
			m.values[k], m.has[k] = value, true
		}
	}
	return nil
}

// knownIndex returns the position in knownHeaders of the header named name
// in any case, or -1.
func knownIndex(name []byte) int {
	for k, h := range knownHeaders {
		if string(name) == h {
			return k // as it is written, mostly
		}
	}
	for k, h := range knownHeaders {
		if len(name) == len(h) && bytes.EqualFold(name, []byte(h)) {
			return k
		}
	}
	return -1
}

// frames cuts a body into messages, in a buffer that grows to the largest
// message and is reused. It reads the body 4 KiB at a time (or a message's
// size, if larger), not once for each prelude and once for each rest of a
// message: the messages a read brings whole are cut from the buffer without
// reading again.
type frames struct {
	body       io.Reader
	buf        []byte
	start, end int   // buf[start:end] is read, and not yet returned
	err        error // the body's error, once it has returned one
	off        int64 // the offset in the body of the next message
}

// framesRead is the least that frames asks the body for at a time.
const framesRead = 4096

// next returns the next message, whole, borrowed until the next call. It
// returns io.EOF at the end of the body between two messages; an error
// wrapping io.ErrUnexpectedEOF for a body that ends inside one; a
// *frameError for a prelude that is wrong (it reads no further); and the
// body's own errors.
func (f *frames) next() ([]byte, error) {
	if err := f.fill(preludeLen); err != nil {
		switch n := f.end - f.start; {
		case err == io.EOF && n == 0:
			return nil, io.EOF
		case err == io.EOF:
			return nil, fmt.Errorf("cut in the prelude, after %d of its 12 bytes: %w", n, io.ErrUnexpectedEOF)
		}
		return nil, err
	}
	total, err := checkPrelude(f.buf[f.start : f.start+preludeLen])
	if err != nil {
		return nil, &frameError{err}
	}
	if err := f.fill(int(total)); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("cut after %d of its %d bytes: %w", f.end-f.start, total, io.ErrUnexpectedEOF)
		}
		return nil, err
	}
	b := f.buf[f.start : f.start+int(total) : f.start+int(total)]
	f.start += int(total)
	return b, nil
}

// fill reads the body until need bytes are read and not returned, or it
// fails: the body's error then (io.EOF at its end), kept for the next
// calls, or io.ErrNoProgress after 100 reads of nothing.
func (f *frames) fill(need int) error {
	for empty := 0; f.end-f.start < need; {
		if f.err != nil {
			return f.err
		}
		if f.start > 0 { // the messages returned are given up
			f.end = copy(f.buf, f.buf[f.start:f.end])
			f.start = 0
		}
		if len(f.buf) < need {
			nb := make([]byte, max(need, 2*len(f.buf), framesRead))
			copy(nb, f.buf[:f.end])
			f.buf = nb
		}
		n, err := f.body.Read(f.buf[f.end:])
		if n < 0 || n > len(f.buf)-f.end {
			n, err = 0, fmt.Errorf("the body's Read returned %d bytes", n)
		}
		f.end += n
		f.err = err
		if n == 0 && err == nil {
			if empty++; empty == 100 {
				f.err = io.ErrNoProgress
			}
		}
	}
	return nil
}

// frameError is a prelude that next refused.
type frameError struct{ err error }

func (e *frameError) Error() string { return e.err.Error() }
func (e *frameError) Unwrap() error { return e.err }

// AppendEvent appends to dst one ConverseStream event as Bedrock sends it,
// an AWS event stream message: the headers :message-type event,
// :event-type eventType and :content-type application/json, then payload,
// the event's JSON; for an eventType that ends in "Exception"
// (throttlingException...), an exception message with :exception-type
// eventType. It is for events held decoded (a recording of them as JSON,
// a test): [Reader.Message] and [Read] read its messages as Bedrock's.
func AppendEvent(dst []byte, eventType string, payload []byte) []byte {
	headers := [3][2]string{{hMessageType, "event"}, {hEventType, eventType}, {hContentType, "application/json"}}
	if exception(eventType) {
		headers[0][1], headers[1][0] = "exception", hExceptionType
	}
	start := len(dst)
	dst = append(dst, make([]byte, preludeLen)...)
	for _, h := range headers {
		dst = append(dst, byte(len(h[0])))
		dst = append(dst, h[0]...)
		dst = append(dst, typeString)
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(h[1])))
		dst = append(dst, h[1]...)
	}
	hlen := len(dst) - start - preludeLen
	dst = append(dst, payload...)
	p := dst[start:]
	binary.BigEndian.PutUint32(p, uint32(len(p)+4))
	binary.BigEndian.PutUint32(p[4:], uint32(hlen))
	binary.BigEndian.PutUint32(p[8:], crc32.ChecksumIEEE(p[:8]))
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
}

// IsEvent reports whether eventType is one of ConverseStream's event types
// or an exception's (one that ends in "Exception"): the events that
// [AppendEvent] writes as Bedrock sends them, by which a recording of them
// is told.
func IsEvent(eventType string) bool {
	return slices.Contains(eventTypes[:], eventType) || exception(eventType)
}

// exception reports whether eventType names an exception, as
// throttlingException does.
func exception(eventType string) bool {
	return len(eventType) > len("Exception") && strings.HasSuffix(eventType, "Exception")
}
