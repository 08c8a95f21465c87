package differ

import (
	"bytes"
	"io"
	"net/http"
)

// Client returns an HTTP client that answers every request with body as a
// text/event-stream, status 200, as the provider's server would: what an
// SDK client reads a generated stream through.
func Client(body []byte) *http.Client {
	return &http.Client{Transport: answer(body)}
}

type answer []byte

func (a answer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		Status:     "200 OK",
		StatusCode: http.StatusOK,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(a)),
		Request:    req,
	}, nil
}
