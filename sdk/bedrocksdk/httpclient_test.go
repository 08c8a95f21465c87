package bedrocksdk_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/argstream/argstream/sdk/bedrocksdk"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// doFunc is a bedrockruntime.HTTPClient of a function.
type doFunc func(*http.Request) (*http.Response, error)

func (f doFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// TestHTTPClient replays, deterministically, what net/http's transport does
// with a request body after it has sent its ContentLength bytes: it copies
// the rest to io.Discard, to check that nothing is left, and by then the SDK
// may have closed the body (it does once Do returns). The SDK's own body
// fails that check with io.EOF (the transport then closes the connection
// under the response); the body HTTPClient passes on reads the same bytes,
// has no WriteTo, and passes the check. If a new SDK stops failing the
// check, the test says so: HTTPClient can then go.
func TestHTTPClient(t *testing.T) {
	stream := join(msgStart(), toolStart(0, "t0", "f"), toolDelta(0, `{}`), blockStop(0), msgStop("tool_use"), metadata())
	for _, wrapped := range []bool{false, true} {
		var sent []byte
		var body io.ReadCloser
		inner := doFunc(func(r *http.Request) (*http.Response, error) {
			body = r.Body
			var err error
			if sent, err = io.ReadAll(io.LimitReader(r.Body, r.ContentLength)); err != nil {
				t.Fatal(err)
			}
			return &http.Response{
				StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": {"application/vnd.amazon.eventstream"}},
				Body:   io.NopCloser(bytes.NewReader(stream)), ContentLength: int64(len(stream)),
			}, nil
		})
		var client bedrockruntime.HTTPClient = inner
		if wrapped {
			client = bedrocksdk.HTTPClient(inner)
		}
		c := bedrockruntime.New(bedrockruntime.Options{
			Region: "us-east-1", BaseEndpoint: aws.String("http://bedrock.test"),
			Credentials: fakeCredentials, RetryMaxAttempts: 1, HTTPClient: client,
		})
		out, err := c.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{
			ModelId:  aws.String("test-model"),
			Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}},
		})
		if err != nil {
			t.Fatalf("wrapped %v: ConverseStream: %v", wrapped, err)
		}
		n := 0
		for range out.GetStream().Events() {
			n++
		}
		out.GetStream().Close()
		if n != 6 || !bytes.Contains(sent, []byte(`"messages"`)) {
			t.Errorf("wrapped %v: %d events, request body %q", wrapped, n, sent)
		}
		// The SDK has closed the body: the transport's last check now.
		_, isWriterTo := body.(io.WriterTo)
		_, checkErr := io.Copy(io.Discard, body)
		switch {
		case !wrapped && (!isWriterTo || !errors.Is(checkErr, io.EOF)):
			t.Errorf("the SDK's request body (%T, WriteTo %v) gives %v after Close, no longer io.EOF: is HTTPClient still needed?", body, isWriterTo, checkErr)
		case wrapped && (isWriterTo || checkErr != nil):
			t.Errorf("HTTPClient's request body (%T, WriteTo %v) gives %v after Close, want nil", body, isWriterTo, checkErr)
		}
	}
}

// TestHTTPClientNil: HTTPClient(nil) is the SDK's default client, wrapped;
// it reaches a server.
func TestHTTPClientNil(t *testing.T) {
	body := join(msgStart(), msgStop("end_turn"), metadata())
	srv := server(t, body)
	c := bedrockruntime.New(bedrockruntime.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: fakeCredentials, RetryMaxAttempts: 1, HTTPClient: bedrocksdk.HTTPClient(nil),
	})
	out, err := c.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String("test-model"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range out.GetStream().Events() {
		n++
	}
	if err := out.GetStream().Err(); n != 3 || err != nil {
		t.Errorf("%d events of 3, error %v", n, err)
	}
}
