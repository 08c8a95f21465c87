package adapter

import (
	"errors"

	"github.com/argstream/argstream/toolcall"
)

// FailMalformed fails resp with err if err wraps malformed (wire's
// ErrMalformed, which this package cannot import): no call of a stream
// that readers could read otherwise runs. It returns err, for the
// readers' step: r.err = FailMalformed(r.resp, r.event(ev), ErrMalformed).
func FailMalformed(resp *toolcall.Response, err, malformed error) error {
	if err != nil && errors.Is(err, malformed) {
		resp.Fail(err)
	}
	return err
}
