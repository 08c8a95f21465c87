package bench

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire/bedrockstream"
	"github.com/argstream/argstream/wire/coherestream"
	"github.com/argstream/argstream/wire/geministream"
	"github.com/argstream/argstream/wire/ollamastream"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	bedrocktypes "github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	ollamaapi "github.com/ollama/ollama/api"
	"google.golang.org/genai"
)

// The wires of BenchmarkSDKWire, issue 23's new ones, each compared with
// its provider's official Go SDK.
const (
	WireGemini  = "gemini"  // Gemini API streamGenerateContent?alt=sse
	WireOllama  = "ollama"  // Ollama /api/chat, one JSON object a line
	WireBedrock = "bedrock" // Bedrock ConverseStream, AWS event stream frames
)

// SDKWires lists the wires of BenchmarkSDKWire in the order it runs them.
var SDKWires = []string{WireGemini, WireOllama, WireBedrock, WireCohere}

// SDKWireRecordings are the recordings (or fixtures) of each of SDKWires,
// in the wire package's testdata, from the bench directory. Gemini's are
// the Gemini API ones with whole functionCall parts: the Vertex ones whose
// arguments come as partialArgs are left out, since genai hands those to
// its caller unassembled (a genai user has no arguments to compare), and
// so is google-reasoning-gemini3, which has no tool call.
var SDKWireRecordings = map[string][]string{
	WireGemini: {
		"../wire/geministream/testdata/vercel-ai__google-tool-call-gemini3.chunks.txt",
		"../wire/geministream/testdata/vercel-ai__google-tool-call.chunks.txt",
	},
	WireOllama: {
		"../wire/ollamastream/testdata/api_md_tools.ndjson",
		"../wire/ollamastream/testdata/cloud_web_search.ndjson",
	},
	WireBedrock: {
		"../wire/bedrockstream/testdata/converse-tool-use.bin",
	},
	WireCohere: {
		"../wire/coherestream/testdata/vercel-ai__cohere-tool-call.chunks.txt",
		"../wire/coherestream/testdata/vercel-ai__cohere-empty-tool-call.chunks.txt",
	},
}

// LoadSDKWireStreams returns, for wire (one of SDKWires), the synthetic
// stream of each workload (createFile, modifyFile, structured) at each of
// sizes, read from dir, then all of its recordings in one stream named
// "recordings". Deltas counts the events that carry arguments: Gemini's
// functionCall parts and Ollama's tool_calls elements (each a whole call:
// these two APIs do not stream arguments), Bedrock's contentBlockDelta
// events with toolUse input and Cohere's tool-call-delta events (the
// arguments cut by CutDeltas).
func LoadSDKWireStreams(wire, dir string, sizes []string) ([]WireStream, error) {
	var ss []WireStream
	for _, size := range sizes {
		for _, w := range []string{"createFile", "modifyFile", "structured"} {
			ws, err := LoadDir(dir, w+"-"+size+".json")
			if err != nil {
				return nil, err
			}
			name := w + "-" + size
			data, deltas, err := SDKWireStream(wire, ToolName(name), ws[0].Data)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", wire, name, err)
			}
			ss = append(ss, WireStream{Name: name, Wire: wire, Parts: [][]byte{data}, Deltas: deltas})
		}
	}
	s := WireStream{Name: "recordings", Wire: wire, Files: SDKWireRecordings[wire]}
	for _, f := range s.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		switch wire {
		case WireGemini:
			data = frameData(data)
		case WireCohere:
			if data, err = frameTyped(data); err != nil {
				return nil, err
			}
		}
		n, err := countSDKWireDeltas(wire, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		s.Parts = append(s.Parts, data)
		s.Deltas += n
	}
	return append(ss, s), nil
}

// frameData frames a *.chunks.txt recording (one payload a line) as
// data-only server-sent events, as the Gemini API sends them.
func frameData(chunks []byte) []byte {
	var b bytes.Buffer
	for line := range bytes.Lines(chunks) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			event(&b, "", line)
		}
	}
	return b.Bytes()
}

// SDKWireStream is a response of wire (one of SDKWires) with one tool call
// named name whose arguments are args (a JSON object), and the number of
// its argument events. Gemini: one chunk with the whole functionCall, then
// a last chunk with finishReason and usage; Ollama: the tool_calls line,
// then the done line; Cohere: see cohereStream; Bedrock: messageStart, the toolUse block's start,
// args cut by CutDeltas in contentBlockDelta events, its stop, messageStop
// and metadata, each an event stream message.
func SDKWireStream(wire, name string, args []byte) ([]byte, int, error) {
	if !json.Valid(args) || len(args) == 0 || args[0] != '{' {
		return nil, 0, errors.New("arguments not a JSON object")
	}
	var b bytes.Buffer
	switch wire {
	case WireGemini:
		event(&b, "", []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"`+name+`","args":`+string(args)+`}}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":1024,"candidatesTokenCount":`+strconv.Itoa(len(args)/4)+`},"modelVersion":"gemini-2.5-flash","responseId":"BenchSyntheticResponse00"}`))
		event(&b, "", []byte(`{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1024,"candidatesTokenCount":`+strconv.Itoa(len(args)/4)+`,"totalTokenCount":`+strconv.Itoa(1024+len(args)/4)+`},"modelVersion":"gemini-2.5-flash","responseId":"BenchSyntheticResponse00"}`))
		return b.Bytes(), 1, nil
	case WireOllama:
		b.WriteString(`{"model":"llama3.2","created_at":"2025-07-07T20:22:19.184789Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"` + name + `","arguments":` + string(args) + `}}]},"done":false}` + "\n")
		b.WriteString(`{"model":"llama3.2","created_at":"2025-07-07T20:22:19.19314Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":182242375,"load_duration":41295167,"prompt_eval_count":169,"prompt_eval_duration":24573166,"eval_count":` + strconv.Itoa(len(args)/4) + `,"eval_duration":114959084}` + "\n")
		return b.Bytes(), 1, nil
	case WireCohere:
		return cohereStream(name, args)
	case WireBedrock:
		ev := func(typ, payload string) { b.Write(eventMessage(typ, []byte(payload))) }
		ev("messageStart", `{"role":"assistant"}`)
		ev("contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_BenchSyntheticCall000","name":"`+name+`"}}}`)
		deltas := CutDeltas(args)
		var d []byte
		var err error
		for _, delta := range deltas {
			d = append(d[:0], `{"contentBlockIndex":0,"delta":{"toolUse":{"input":`...)
			if d, err = quote(d, delta); err != nil {
				return nil, 0, err
			}
			d = append(d, `}}}`...)
			b.Write(eventMessage("contentBlockDelta", d))
		}
		ev("contentBlockStop", `{"contentBlockIndex":0}`)
		ev("messageStop", `{"stopReason":"tool_use"}`)
		ev("metadata", `{"usage":{"inputTokens":1024,"outputTokens":`+strconv.Itoa(len(args)/4)+`,"totalTokens":`+strconv.Itoa(1024+len(args)/4)+`},"metrics":{"latencyMs":100}}`)
		return b.Bytes(), len(deltas), nil
	}
	return nil, 0, fmt.Errorf("unknown wire %q", wire)
}

// eventMessage is an AWS event stream message of an event, as Bedrock
// writes one: the prelude (total and headers' lengths, their CRC-32), the
// string headers :event-type, :content-type and :message-type, the
// payload, the message's CRC-32.
func eventMessage(typ string, payload []byte) []byte {
	var hs []byte
	for _, h := range [][2]string{{":event-type", typ}, {":content-type", "application/json"}, {":message-type", "event"}} {
		hs = append(append(hs, byte(len(h[0]))), h[0]...)
		hs = binary.BigEndian.AppendUint16(append(hs, 7), uint16(len(h[1])))
		hs = append(hs, h[1]...)
	}
	m := binary.BigEndian.AppendUint32(nil, uint32(12+len(hs)+len(payload)+4))
	m = binary.BigEndian.AppendUint32(m, uint32(len(hs)))
	m = binary.BigEndian.AppendUint32(m, crc32.ChecksumIEEE(m))
	m = append(append(m, hs...), payload...)
	return binary.BigEndian.AppendUint32(m, crc32.ChecksumIEEE(m))
}

// countSDKWireDeltas counts the argument events of a recording of wire, as
// LoadSDKWireStreams defines them.
func countSDKWireDeltas(wire string, data []byte) (int, error) {
	n := 0
	switch wire {
	case WireGemini, WireOllama:
		for line := range bytes.Lines(data) {
			line = bytes.TrimSpace(line)
			if wire == WireGemini {
				var ok bool
				if line, ok = bytes.CutPrefix(line, []byte("data:")); !ok {
					continue
				}
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var v struct {
				Candidates []struct {
					Content struct {
						Parts []struct {
							FunctionCall json.RawMessage `json:"functionCall"`
						} `json:"parts"`
					} `json:"content"`
				} `json:"candidates"`
				Message struct {
					ToolCalls []json.RawMessage `json:"tool_calls"`
				} `json:"message"`
			}
			if err := json.Unmarshal(line, &v); err != nil {
				return 0, err
			}
			for _, c := range v.Candidates {
				for _, p := range c.Content.Parts {
					if p.FunctionCall != nil {
						n++
					}
				}
			}
			n += len(v.Message.ToolCalls)
		}
	case WireCohere:
		n = countCohereDeltas(data)
	case WireBedrock:
		for len(data) > 0 {
			if len(data) < 12 {
				return 0, errors.New("event stream cut short")
			}
			total, hlen := binary.BigEndian.Uint32(data), binary.BigEndian.Uint32(data[4:])
			if total < 16+hlen || int(total) > len(data) {
				return 0, errors.New("bad event stream prelude")
			}
			payload := data[12+hlen : total-4]
			if bytes.Contains(data[12:12+hlen], []byte("contentBlockDelta")) && bytes.Contains(payload, []byte(`"toolUse"`)) {
				n++
			}
			data = data[total:]
		}
	default:
		return 0, fmt.Errorf("unknown wire %q", wire)
	}
	return n, nil
}

// SDKWireContenders returns the contenders of wire (one of SDKWires):
// argstream (the wire package's Reader, with an SSE reader for the SSE
// wires, Gemini's and Cohere's, or with its own buffer, ReadBody, for
// Ollama's and Bedrock's, driving a toolcall.Response, all kept from
// response to response with Reset) and sdk (the provider's
// official Go SDK reading the same bytes, served by an http.RoundTripper or
// HTTP client that answers every request with them: no socket; the SDK's
// cost of building and, for Bedrock, signing the request is in its figures,
// once per response).
func SDKWireContenders(wire string) []WireContender {
	var reader func(*toolcall.Response) eventReader // an SSE wire's, kept
	var bodies func(*toolcall.Response) bodyReader  // or another wire's, kept
	var sdk func() WireParser
	switch wire {
	case WireGemini:
		reader = func(resp *toolcall.Response) eventReader { return geministream.NewReader(resp) }
		sdk = newGenaiSDK
	case WireOllama:
		bodies = func(resp *toolcall.Response) bodyReader { return ollamastream.NewReader(resp) }
		sdk = newOllamaSDK
	case WireBedrock:
		bodies = func(resp *toolcall.Response) bodyReader { return bedrockstream.NewReader(resp) }
		sdk = newBedrockSDK
	case WireCohere:
		reader = func(resp *toolcall.Response) eventReader { return coherestream.NewReader(resp) }
		sdk = newCohereSDK
	default:
		panic("unknown wire " + wire)
	}
	return []WireContender{
		{Name: "argstream", New: func() WireParser {
			if bodies != nil {
				return newArgstreamParser(keptBodies(bodies), nil)
			}
			return newArgstreamParser(nil, reader)
		}},
		{Name: "sdk", New: sdk},
	}
}

// bodyReader is a wire's reader of bodies with its own buffer, kept from
// body to body: ollamastream.Reader, bedrockstream.Reader.
type bodyReader interface {
	Reset(resp *toolcall.Response)
	ReadBody(ctx context.Context, body io.Reader) error
}

// keptBodies returns a readFunc that reads each body with one reader of
// newReader's, made at the first body and Reset for each after it.
func keptBodies(newReader func(*toolcall.Response) bodyReader) readFunc {
	var r bodyReader
	return func(ctx context.Context, body io.Reader, resp *toolcall.Response) error {
		if r == nil {
			r = newReader(resp)
		} else {
			r.Reset(resp)
		}
		return r.ReadBody(ctx, body)
	}
}

// fixedBody answers every request with its body, in its content type,
// status 200. It serves one request at a time.
type fixedBody struct {
	contentType string
	body        []byte
}

func (f *fixedBody) RoundTrip(req *http.Request) (*http.Response, error) { return f.Do(req) }

func (f *fixedBody) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {f.contentType}},
		Body:          io.NopCloser(bytes.NewReader(f.body)),
		ContentLength: int64(len(f.body)),
		Request:       req,
	}, nil
}

// genaiSDK is google.golang.org/genai as a program reads a stream:
// client.Models.GenerateContentStream, the functionCall parts of each
// response's candidates collected (their Args already a map).
type genaiSDK struct {
	rt     *fixedBody
	client *genai.Client
	calls  []WireCall
}

func newGenaiSDK() WireParser {
	rt := &fixedBody{contentType: "text/event-stream"}
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "bench-key",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  &http.Client{Transport: rt},
		HTTPOptions: genai.HTTPOptions{BaseURL: "http://gemini.invalid/"},
	})
	if err != nil {
		panic(err) // no I/O: only a bad config fails
	}
	return &genaiSDK{rt: rt, client: c}
}

func (p *genaiSDK) Read(body []byte) ([]WireCall, error) {
	p.rt.body = body
	p.calls = p.calls[:0]
	for resp, err := range p.client.Models.GenerateContentStream(context.Background(), "gemini-2.5-flash", genai.Text("Go."), nil) {
		if err != nil {
			return p.calls, err
		}
		for _, c := range resp.Candidates {
			if c.Content == nil {
				continue
			}
			for _, part := range c.Content.Parts {
				if fc := part.FunctionCall; fc != nil {
					p.calls = append(p.calls, WireCall{Name: fc.Name, Value: fc.Args})
				}
			}
		}
	}
	return p.calls, nil
}

// ollamaSDK is github.com/ollama/ollama/api as a program reads a stream:
// Client.Chat with a ChatResponseFunc that collects each message's
// tool_calls, their arguments as a map (ToolCallFunctionArguments.ToMap).
// Client.Chat allocates an 8 MB line buffer per call (api/client.go,
// maxBufferSize), which is most of its cost on a small response.
type ollamaSDK struct {
	rt     *fixedBody
	client *ollamaapi.Client
	calls  []WireCall
}

func newOllamaSDK() WireParser {
	rt := &fixedBody{contentType: "application/x-ndjson"}
	return &ollamaSDK{rt: rt, client: ollamaapi.NewClient(&url.URL{Scheme: "http", Host: "ollama.invalid"}, &http.Client{Transport: rt})}
}

func (p *ollamaSDK) Read(body []byte) ([]WireCall, error) {
	p.rt.body = body
	p.calls = p.calls[:0]
	err := p.client.Chat(context.Background(), &ollamaapi.ChatRequest{
		Model:    "llama3.2",
		Messages: []ollamaapi.Message{{Role: "user", Content: "Go."}},
	}, func(resp ollamaapi.ChatResponse) error {
		for _, tc := range resp.Message.ToolCalls {
			p.calls = append(p.calls, WireCall{Name: tc.Function.Name, Value: tc.Function.Arguments.ToMap()})
		}
		return nil
	})
	return p.calls, err
}

// bedrockSDK is aws-sdk-go-v2's bedrockruntime as a program reads a
// stream: ConverseStream, the toolUse input fragments of each block's
// contentBlockDelta events concatenated, then unmarshalled.
type bedrockSDK struct {
	hc     *fixedBody
	client *bedrockruntime.Client
	calls  []WireCall
}

func newBedrockSDK() WireParser {
	hc := &fixedBody{contentType: "application/vnd.amazon.eventstream"}
	c := bedrockruntime.New(bedrockruntime.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://bedrock.invalid"),
		RetryMaxAttempts: 1,
		HTTPClient:       hc,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}, nil
		}),
	})
	return &bedrockSDK{hc: hc, client: c}
}

// streamedCall is a call whose arguments an SDK hands over in pieces, as
// a program gathers them: Bedrock's and Cohere's.
type streamedCall struct {
	name  string
	input strings.Builder
}

func (p *bedrockSDK) Read(body []byte) ([]WireCall, error) {
	p.hc.body = body
	p.calls = p.calls[:0]
	out, err := p.client.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String("bench-model"),
		Messages: []bedrocktypes.Message{{Role: bedrocktypes.ConversationRoleUser, Content: []bedrocktypes.ContentBlock{&bedrocktypes.ContentBlockMemberText{Value: "Go."}}}},
	})
	if err != nil {
		return nil, err
	}
	stream := out.GetStream()
	defer stream.Close()
	var calls []*streamedCall
	byIndex := map[int32]*streamedCall{}
	for ev := range stream.Events() {
		switch ev := ev.(type) {
		case *bedrocktypes.ConverseStreamOutputMemberContentBlockStart:
			if tu, ok := ev.Value.Start.(*bedrocktypes.ContentBlockStartMemberToolUse); ok {
				c := &streamedCall{name: aws.ToString(tu.Value.Name)}
				calls = append(calls, c)
				byIndex[aws.ToInt32(ev.Value.ContentBlockIndex)] = c
			}
		case *bedrocktypes.ConverseStreamOutputMemberContentBlockDelta:
			if tu, ok := ev.Value.Delta.(*bedrocktypes.ContentBlockDeltaMemberToolUse); ok {
				if c := byIndex[aws.ToInt32(ev.Value.ContentBlockIndex)]; c != nil {
					c.input.WriteString(aws.ToString(tu.Value.Input))
				}
			}
		}
	}
	for _, c := range calls {
		p.calls = append(p.calls, unmarshalArgs(c.name, []byte(c.input.String())))
	}
	return p.calls, stream.Err()
}
