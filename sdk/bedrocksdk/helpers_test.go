package bedrocksdk_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/argstream/argstream/sdk/bedrocksdk"
	"github.com/argstream/argstream/sdk/internal/check"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/bedrockstream"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// The tests' encoder of the AWS event stream encoding, written from its
// specification (as wire/bedrockstream's helpers_test.go, whose package is
// not importable here): a prelude of the total and headers' lengths and
// their CRC-32, string headers, the JSON payload, the message's CRC-32.
func encode(headers [][2]string, payload string) []byte {
	var hs []byte
	for _, h := range headers {
		hs = append(hs, byte(len(h[0])))
		hs = append(hs, h[0]...)
		hs = binary.BigEndian.AppendUint16(append(hs, 7), uint16(len(h[1])))
		hs = append(hs, h[1]...)
	}
	total := 12 + len(hs) + len(payload) + 4
	b := binary.BigEndian.AppendUint32(nil, uint32(total))
	b = binary.BigEndian.AppendUint32(b, uint32(len(hs)))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(append(b, hs...), payload...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// ev is an event message as Bedrock writes one.
func ev(typ, payload string) []byte {
	return encode([][2]string{{":event-type", typ}, {":content-type", "application/json"}, {":message-type", "event"}}, payload)
}

// exc is an exception message.
func exc(typ, payload string) []byte {
	return encode([][2]string{{":exception-type", typ}, {":content-type", "application/json"}, {":message-type", "exception"}}, payload)
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func msgStart() []byte { return ev("messageStart", `{"role":"assistant"}`) }
func textDelta(i int, s string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"text":%s}}`, i, quote(s)))
}
func reasonDelta(i int, s string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"reasoningContent":{"text":%s}}}`, i, quote(s)))
}
func toolStart(i int, id, name string) []byte {
	return ev("contentBlockStart", fmt.Sprintf(`{"contentBlockIndex":%d,"start":{"toolUse":{"toolUseId":%s,"name":%s}}}`, i, quote(id), quote(name)))
}
func toolDelta(i int, input string) []byte {
	return ev("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"toolUse":{"input":%s}}}`, i, quote(input)))
}
func blockStop(i int) []byte {
	return ev("contentBlockStop", fmt.Sprintf(`{"contentBlockIndex":%d}`, i))
}
func msgStop(reason string) []byte {
	return ev("messageStop", fmt.Sprintf(`{"stopReason":%s}`, quote(reason)))
}
func metadata() []byte {
	return ev("metadata", `{"usage":{"inputTokens":10,"outputTokens":20,"totalTokens":30},"metrics":{"latencyMs":100}}`)
}

func join(msgs ...[]byte) []byte { return bytes.Join(msgs, nil) }

// server answers POST /model/{id}/converse-stream with body, in the event
// stream content type; any other request fails the test.
func server(t testing.TB, body []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/model/test-model/converse-stream" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		req, err := io.ReadAll(r.Body)
		if err != nil || !bytes.Contains(req, []byte(`"messages"`)) {
			t.Errorf("request body %q, %v", req, err)
		}
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newClient is a bedrockruntime client of url, with fake credentials, no
// retries, and its HTTP client wrapped by bedrocksdk.HTTPClient: the
// httptest server answers at once, and without the wrapper about one stream
// in 170 of TestGenerated's ended early, with "use of closed network
// connection" (18 of 3,000 measured; see HTTPClient).
func newClient(url string) *bedrockruntime.Client {
	return bedrockruntime.New(bedrockruntime.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(url),
		Credentials:      fakeCredentials,
		RetryMaxAttempts: 1,
	}, func(o *bedrockruntime.Options) {
		o.HTTPClient = bedrocksdk.HTTPClient(o.HTTPClient)
	})
}

// fakeCredentials sign the requests (the SigV4 signer needs some; the
// httptest server does not check them).
var fakeCredentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
	return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}, nil
})

// viaSDK serves body to a bedrockruntime client, feeds its events to a
// Response with Feed, and returns the outcomes, the events' types and the
// stream's error.
func viaSDK(t testing.TB, body []byte) (outcomes []check.Outcome, events []string, streamErr error) {
	t.Helper()
	srv := server(t, body)
	out, err := newClient(srv.URL).ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String("test-model"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}},
	})
	if err != nil {
		t.Fatalf("ConverseStream: %v", err)
	}
	stream := out.GetStream()
	defer stream.Close()
	resp := toolcall.New()
	for e := range stream.Events() {
		events = append(events, fmt.Sprintf("%T", e))
		if err := bedrocksdk.Feed(resp, e); err != nil {
			t.Fatalf("Feed: %v", err)
		}
	}
	return check.Outcomes(resp.End()), events, stream.Err()
}

// viaRead reads body with wire/bedrockstream's Read.
func viaRead(body []byte) ([]check.Outcome, error) {
	resp := toolcall.New()
	err := bedrockstream.Read(context.Background(), bytes.NewReader(body), resp)
	return check.Outcomes(resp.End()), err
}
