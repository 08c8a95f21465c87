package openaistream

import "github.com/argstream/argstream/wire"

// ErrMalformed is wrapped by the error [ReadChat] or [ReadResponses] returns
// for an event they must understand whose data is not the JSON the API
// documents: not JSON, a missing or negative index, a field of the wrong
// kind.
//
// It is [wire.ErrMalformed], the sentinel of every wire: [errors.Is] matches
// either.
var ErrMalformed = wire.ErrMalformed
