package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/argstream/argstream/wire/sse"
)

// Stream says how one provider's stream ends, for [Loop].
type Stream struct {
	// Name prefixes Loop's errors: "anthropic".
	Name string
	// Last names the event that ends a whole stream, for the error of a
	// stream that ends without it: "message_stop".
	Last string
	// CompleteAtEOF, if set, reports whether a stream whose body ends
	// without Last is complete all the same: ended cleanly (between
	// events), or in an event that no blank line ended, which the spec and
	// the SDKs' readers drop.
	CompleteAtEOF func() bool
	// Malformed is wire.ErrMalformed (which this package cannot import:
	// wire imports it), which Loop's error for a stream the SSE reader finds
	// ambiguous (sse.ErrAmbiguous) wraps too.
	Malformed error
}

// Loop reads the events of rd and hands each to event, until event reports
// done, returns an error, or ctx ends (checked before each event). It
// returns nil when event reports done, and otherwise:
//
//   - event's error;
//   - ctx.Err();
//   - at the end of the body, nil if s.CompleteAtEOF says so (the body may
//     end in an event cut off, which the SDKs drop as the spec does), or
//     else an error wrapping [io.ErrUnexpectedEOF];
//   - for a stream cut inside an event, an error wrapping both
//     io.ErrUnexpectedEOF and rd's [*sse.Error] for [sse.ErrTruncated];
//   - for a stream rd finds ambiguous, an error wrapping s.Malformed and
//     rd's *sse.Error for [sse.ErrAmbiguous], prefixed with s.Name;
//   - any other error of rd, wrapped.
func Loop(ctx context.Context, rd *sse.Reader, s Stream, event func(sse.Event) (done bool, err error)) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !rd.Next() {
			break
		}
		done, err := event(rd.Event())
		if err != nil || done {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err := rd.Err()
	switch {
	case err == nil:
		if s.CompleteAtEOF != nil && s.CompleteAtEOF() {
			return nil
		}
		return fmt.Errorf("%s: stream ended before %s: %w", s.Name, s.Last, io.ErrUnexpectedEOF)
	case errors.Is(err, sse.ErrAmbiguous) && s.Malformed != nil:
		return fmt.Errorf("%s: %w: %w", s.Name, s.Malformed, err)
	case errors.Is(err, sse.ErrTruncated) && s.CompleteAtEOF != nil && s.CompleteAtEOF():
		return nil
	case errors.Is(err, sse.ErrTruncated):
		return fmt.Errorf("%s: stream ended before %s: %w: %w", s.Name, s.Last, io.ErrUnexpectedEOF, err)
	default:
		return fmt.Errorf("%s: %w", s.Name, err)
	}
}
