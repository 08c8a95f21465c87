package argstream

import (
	"errors"

	"github.com/argstream/argstream/token"
)

// Write feeds p (see [Stream.Feed]), so that a [Stream] is an [io.Writer]:
// io.Copy(s, body) parses a body as it arrives. It returns len(p) and nil, or
// the error that ended the stream and how many bytes of p came before the
// first wrong byte (0 when the error is not about a byte of p, such as a
// sink's). Like Feed, it does not keep p.
func (s *Stream) Write(p []byte) (int, error) {
	before := s.off
	if err := s.Feed(p); err != nil {
		return written(err, before, len(p)), err
	}
	return len(p), nil
}

// WriteString feeds the string str, for SDKs whose deltas are strings. It
// copies str into memory the [Stream] keeps, since fragments borrow the input
// as []byte, so a steady stream of deltas does not allocate. See
// [Stream.Write].
func (s *Stream) WriteString(str string) (int, error) {
	s.text = append(s.text[:0], str...)
	before := s.off
	if err := s.Feed(s.text); err != nil {
		return written(err, before, len(str)), err
	}
	return len(str), nil
}

// written returns how many of the n bytes fed from offset before came
// before err's wrong byte.
func written(err error, before int64, n int) int {
	var se *token.SyntaxError
	if errors.As(err, &se) && se.Offset >= before {
		return int(min(se.Offset-before, int64(n)))
	}
	return 0
}
