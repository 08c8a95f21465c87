package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"

	cohere "github.com/cohere-ai/cohere-go/v2"
	cohereclient "github.com/cohere-ai/cohere-go/v2/client"
	cohereoption "github.com/cohere-ai/cohere-go/v2/option"
)

// WireCohere is Cohere's v2 chat stream (/v2/chat), server-sent events
// named by their data's type.
const WireCohere = "cohere"

// cohereStream writes a Cohere v2 chat stream of one call named name
// whose arguments are args, as the API sends it (each event named by its
// type): message-start, a tool plan, tool-call-start (arguments ""), args
// cut by CutDeltas in tool-call-delta events, tool-call-end, message-end
// with usage. It returns the stream and its number of deltas.
func cohereStream(name string, args []byte) ([]byte, int, error) {
	var b bytes.Buffer
	event(&b, "message-start", []byte(`{"id":"2941521a-b87a-45f6-9b0d-235fd66c3025","type":"message-start","delta":{"message":{"role":"assistant","content":[],"tool_plan":"","tool_calls":[],"citations":[]}}}`))
	event(&b, "tool-plan-delta", []byte(`{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will use the tool."}}}`))
	event(&b, "tool-call-start", []byte(`{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"`+name+`_e8p4pn45zt0t","type":"function","function":{"name":"`+name+`","arguments":""}}}}}`))
	deltas := CutDeltas(args)
	var d []byte
	var err error
	for _, delta := range deltas {
		d = append(d[:0], `{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":`...)
		if d, err = quote(d, delta); err != nil {
			return nil, 0, err
		}
		d = append(d, `}}}}}`...)
		event(&b, "tool-call-delta", d)
	}
	event(&b, "tool-call-end", []byte(`{"type":"tool-call-end","index":0}`))
	event(&b, "message-end", []byte(`{"type":"message-end","delta":{"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":119,"output_tokens":44},"tokens":{"input_tokens":1549,"output_tokens":95}}}}`))
	return b.Bytes(), len(deltas), nil
}

// countCohereDeltas counts the tool-call-delta events of a Cohere stream.
func countCohereDeltas(data []byte) int {
	n := 0
	for line := range bytes.Lines(data) {
		if bytes.HasPrefix(line, []byte("data:")) && bytes.Contains(line, []byte(`"type":"tool-call-delta"`)) {
			n++
		}
	}
	return n
}

// frameTyped frames a *.chunks.txt recording (one payload a line) as
// server-sent events named by their data's type, as Cohere sends them.
func frameTyped(chunks []byte) ([]byte, error) {
	var b bytes.Buffer
	for line := range bytes.Lines(chunks) {
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, err
		}
		event(&b, v.Type, line)
	}
	return b.Bytes(), nil
}

// cohereSDK is github.com/cohere-ai/cohere-go/v2 as a program reads a
// stream, but for its framing: client.V2.ChatStream makes the request
// (the SDK's cost of building it is in the figures, once per response),
// and each event's data is then decoded as its Stream.Recv decodes a
// message, with json.Unmarshal into a V2ChatStreamResponse (whose
// UnmarshalJSON reads the "type", then the event's own type); the
// arguments of each call (tool-call-start's, then each tool-call-delta's,
// by index) are concatenated, then unmarshalled ("" taken as {}, a call of
// no arguments).
//
// Recv itself cannot read these streams: its reader (core/stream.go,
// scannerStreamReader) splits the body at line ends with a bufio.Scanner
// and takes the bytes after the first "data: " of what it has buffered,
// returning what it has when no line end follows; so where its 4 KiB
// buffer ends inside an event, and at the blank line that ends the last
// one, Recv returns bytes that are not JSON and fails ("unexpected end of
// JSON input"; cohere-go issue 103 reports it). The data lines are split
// here by a bufio.Scanner of lines over the whole body, the SDK's own
// splitting when its buffer holds the event whole.
type cohereSDK struct {
	hc     *fixedBody
	client *cohereclient.Client
	calls  []WireCall
}

func newCohereSDK() WireParser {
	hc := &fixedBody{contentType: "text/event-stream"}
	c := cohereclient.NewClient(cohereoption.WithToken("bench-key"), cohereoption.WithBaseURL("http://cohere.invalid"),
		cohereoption.WithHTTPClient(hc), cohereoption.WithMaxAttempts(1))
	return &cohereSDK{hc: hc, client: c}
}

func (p *cohereSDK) Read(body []byte) ([]WireCall, error) {
	p.hc.body = body
	p.calls = p.calls[:0]
	stream, err := p.client.V2.ChatStream(context.Background(), &cohere.V2ChatStreamRequest{
		Model:    "command-a-03-2025",
		Messages: cohere.ChatMessages{{Role: "user", User: &cohere.UserMessageV2{Content: &cohere.UserMessageV2Content{String: "Go."}}}},
	})
	if err != nil {
		return nil, err
	}
	_ = stream.Close()
	var calls []*streamedCall
	byIndex := map[int]*streamedCall{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(data) == "[DONE]" {
			continue
		}
		var ev cohere.V2ChatStreamResponse
		if err := json.Unmarshal(data, &ev); err != nil {
			return nil, err
		}
		switch {
		case ev.ToolCallStart != nil && ev.ToolCallStart.Index != nil:
			c := &streamedCall{}
			if fn := ev.ToolCallStart.GetDelta().GetMessage().GetToolCalls().GetFunction(); fn != nil {
				if fn.Name != nil {
					c.name = *fn.Name
				}
				if fn.Arguments != nil {
					c.input.WriteString(*fn.Arguments)
				}
			}
			calls = append(calls, c)
			byIndex[*ev.ToolCallStart.Index] = c
		case ev.ToolCallDelta != nil && ev.ToolCallDelta.Index != nil:
			if c := byIndex[*ev.ToolCallDelta.Index]; c != nil {
				if a := ev.ToolCallDelta.GetDelta().GetMessage().GetToolCalls().GetFunction().GetArguments(); a != nil {
					c.input.WriteString(*a)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, c := range calls {
		args := c.input.String()
		if args == "" {
			args = "{}"
		}
		p.calls = append(p.calls, unmarshalArgs(c.name, []byte(args)))
	}
	return p.calls, nil
}
