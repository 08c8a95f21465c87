package bedrocksdk

import (
	"io"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
)

// HTTPClient returns an HTTP client for bedrockruntime.Options.HTTPClient
// that sends each request through c (the SDK's default client if c is nil)
// with its body stripped of the WriteTo method, so that a response which
// arrives early cannot make net/http close the connection under the event
// stream:
//
//	client := bedrockruntime.NewFromConfig(cfg, func(o *bedrockruntime.Options) {
//		o.HTTPClient = bedrocksdk.HTTPClient(o.HTTPClient)
//	})
//
// Why: the SDK wraps a request's body in a reader that it closes as soon as
// client.Do returns, that is once the response's headers have come, and
// whose WriteTo, once closed, returns io.EOF as an error. net/http's
// transport, having sent the body's ContentLength bytes, reads the body once
// more to check that nothing is left over; it reads with WriteTo when the
// body has one. When the server answers within microseconds of the last
// byte of the request (a local fake, a test server, a cache in front of
// Bedrock), that last check may run after the SDK's Close: it fails with
// io.EOF, the transport takes it for a failed write and closes the
// connection, and the SDK's event reader, in the middle of the body, stops
// with "use of closed network connection" (stream.Err()). Bedrock itself
// answers only after the model has begun, long after the check, but a busy
// process may still delay the transport's goroutine that long. Without
// WriteTo the transport checks with Read, which the closed reader answers
// with io.EOF as a reader should: nothing left, no error.
//
// The calls of a stream cut that way are safe without HTTPClient too: those
// not stopped come out of End truncated, never executable. HTTPClient keeps
// such a stream whole. The client it returns is safe for concurrent use if
// c is (the SDK's clients are).
func HTTPClient(c bedrockruntime.HTTPClient) bedrockruntime.HTTPClient {
	if c == nil {
		c = awshttp.NewBuildableClient()
	}
	return readOnlyBodies{c}
}

// readOnlyBodies is HTTPClient's client. It is safe for concurrent use if
// the client it wraps is.
type readOnlyBodies struct{ c bedrockruntime.HTTPClient }

func (h readOnlyBodies) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		if _, ok := req.Body.(io.WriterTo); ok {
			r := *req // shallow: only Body changes
			r.Body = readCloser{req.Body}
			req = &r
		}
	}
	return h.c.Do(req)
}

// readCloser has the methods of io.ReadCloser and no other: the WriteTo of
// the body it wraps is hidden.
type readCloser struct{ io.ReadCloser }
