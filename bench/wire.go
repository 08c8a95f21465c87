package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/argstream/argstream/internal/wirecount"
	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json/jsontext"
)

// The provider wires of the end-to-end benchmark (BenchmarkWire): the
// server-sent events of a streaming response, as each API sends them.
const (
	WireAnthropic = "anthropic"        // Anthropic Messages
	WireChat      = "openai-chat"      // OpenAI Chat Completions
	WireResponses = "openai-responses" // OpenAI Responses
)

// Wires lists the wires in the order the benchmarks run them.
var Wires = []string{WireAnthropic, WireChat, WireResponses}

// A WireStream is one provider response to read, as SSE bytes: one or
// several responses one after the other (Parts), each read by its own call
// of the contender (a recording may hold a response and nothing else).
type WireStream struct {
	Name  string   // "createFile-100k", or "recordings" for all of a wire's recordings
	Wire  string   // WireAnthropic, WireChat or WireResponses
	Parts [][]byte // the responses, each a whole SSE body
	// Deltas counts the argument delta events of all the parts (empty ones
	// included): input_json_delta, a tool call's function.arguments in a
	// chunk, response.function_call_arguments.delta.
	Deltas int
	// Files names the recordings of the parts (empty for a synthetic stream).
	Files []string
	// Layout is the layout of its events' data (WireLayouts), or empty for
	// the documented one.
	Layout string
}

// Bytes is the size of all the parts.
func (s WireStream) Bytes() int {
	n := 0
	for _, p := range s.Parts {
		n += len(p)
	}
	return n
}

// DeltaSizes is the cycle of argument delta sizes, in bytes, that the
// synthetic streams cut the arguments into: a fixed pattern, repeated,
// whose median is 7 and 90th percentile 12 (nearest rank), the figures of
// the 1,268 argument deltas of the recordings of testdata/llm_streams
// (mean 7.4 here). A cut that would fall inside a UTF-8 sequence is moved
// after it, since a provider sends whole characters in its JSON strings;
// cuts inside JSON escapes (between \ and n) are kept, as providers make
// them.
var DeltaSizes = []int{5, 9, 2, 12, 7, 4, 10, 6, 16, 3, 8, 11, 2, 7, 5, 12, 6, 9, 4, 10}

// CutDeltas cuts args into deltas of the sizes of DeltaSizes, in turn.
func CutDeltas(args []byte) [][]byte {
	var ds [][]byte
	for i, k := 0, 0; i < len(args); k++ {
		end := min(i+DeltaSizes[k%len(DeltaSizes)], len(args))
		for end < len(args) && !utf8.RuneStart(args[end]) {
			end++
		}
		ds = append(ds, args[i:end])
		i = end
	}
	return ds
}

// ToolName is the tool name the synthetic streams give a workload's call:
// fs_create_file for createFile, fs_modify_file for modifyFile, query_rows
// for anything else.
func ToolName(workload string) string {
	switch {
	case strings.HasPrefix(workload, "createFile"):
		return "fs_create_file"
	case strings.HasPrefix(workload, "modifyFile"):
		return "fs_modify_file"
	}
	return "query_rows"
}

// SyntheticStream is a response of wire with one tool call, named name,
// whose arguments are args cut by CutDeltas, each delta in the wire's own
// envelope, framed as the API frames its events.
func SyntheticStream(wire, name string, args []byte) ([]byte, error) {
	deltas := CutDeltas(args)
	var b bytes.Buffer
	var err error
	switch wire {
	case WireAnthropic:
		err = anthropicStream(&b, name, args, deltas)
	case WireChat:
		err = chatStream(&b, name, deltas)
	case WireResponses:
		err = responsesStream(&b, name, args, deltas)
	default:
		err = fmt.Errorf("unknown wire %q", wire)
	}
	return b.Bytes(), err
}

// quote appends s as a JSON string, as the providers write it: UTF-8 kept,
// < > & not escaped. It fails on invalid UTF-8.
func quote(dst []byte, s []byte) ([]byte, error) {
	return jsontext.AppendQuote(dst, s)
}

// event writes one SSE event: its event line if typ is set, then data.
func event(b *bytes.Buffer, typ string, data []byte) {
	if typ != "" {
		b.WriteString("event: ")
		b.WriteString(typ)
		b.WriteByte('\n')
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
}

// anthropicStream writes a Messages stream in the shape of the recordings:
// message_start, the tool_use block's start (input {}), a ping, an empty
// first delta then the deltas, its stop, message_delta and message_stop,
// each with its event line. The 2025 recordings' white-space padding of the
// data is left out.
func anthropicStream(b *bytes.Buffer, name string, args []byte, deltas [][]byte) error {
	event(b, "message_start", []byte(`{"type":"message_start","message":{"id":"msg_01BenchSyntheticStream00","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1024,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}`))
	event(b, "content_block_start", []byte(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01BenchSyntheticCall000","name":"`+name+`","input":{}}}`))
	event(b, "ping", []byte(`{"type": "ping"}`))
	var d []byte
	var err error
	for _, delta := range append([][]byte{nil}, deltas...) {
		d = append(d[:0], `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`...)
		if d, err = quote(d, delta); err != nil {
			return err
		}
		d = append(d, "}}"...)
		event(b, "content_block_delta", d)
	}
	event(b, "content_block_stop", []byte(`{"type":"content_block_stop","index":0}`))
	event(b, "message_delta", []byte(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":`+strconv.Itoa(len(args)/4)+`}}`))
	event(b, "message_stop", []byte(`{"type":"message_stop"}`))
	return nil
}

// chatStream writes a Chat Completions stream in the shape of the
// openai-python recordings: a first chunk with the role and the call's id,
// name and empty arguments, a chunk per delta
// (choices[0].delta.tool_calls[0].function.arguments), a last chunk with
// finish_reason, and data: [DONE]; data lines only, as the API sends them.
func chatStream(b *bytes.Buffer, name string, deltas [][]byte) error {
	const head = `{"id":"chatcmpl-BenchSyntheticStream000000000","object":"chat.completion.chunk","created":1727346180,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_b40fb1c6fb","choices":[{"index":0,"delta":{`
	event(b, "", []byte(head+`"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_BenchSyntheticCall000000","type":"function","function":{"name":"`+name+`","arguments":""}}],"refusal":null},"logprobs":null,"finish_reason":null}]}`))
	var d []byte
	var err error
	for _, delta := range deltas {
		d = append(d[:0], head+`"tool_calls":[{"index":0,"function":{"arguments":`...)
		if d, err = quote(d, delta); err != nil {
			return err
		}
		d = append(d, `}}]},"logprobs":null,"finish_reason":null}]}`...)
		event(b, "", d)
	}
	event(b, "", []byte(head+`},"logprobs":null,"finish_reason":"tool_calls"}]}`))
	event(b, "", []byte(sse.Done))
	return nil
}

// responsesStream writes a Responses stream in the shape of the 2025
// recordings (vercel-ai azure and openai): response.created and
// response.in_progress, the function_call item added, a
// response.function_call_arguments.delta per delta with its item_id,
// output_index, sequence_number and obfuscation padding (delta and
// obfuscation 16 bytes together, as in the recordings), then
// response.function_call_arguments.done, response.output_item.done and
// response.completed, which repeat the whole arguments as the API does;
// each with its event line.
func responsesStream(b *bytes.Buffer, name string, args []byte, deltas [][]byte) error {
	const itemID, callID = "fc_0BenchSyntheticItem000000000000000000000000000", "call_BenchSyntheticCall0000000"
	seq := 0
	next := func() string { seq++; return strconv.Itoa(seq - 1) }
	response := func(status, output, usage string) string {
		return `{"id":"resp_0BenchSyntheticResponse00000000000000000000000","object":"response","created_at":1770803615,"status":"` + status + `","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"model":"gpt-5.1-2025-11-13","output":[` + output + `],"parallel_tool_calls":true,"previous_response_id":null,"reasoning":{"effort":"none","summary":null},"store":true,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[{"type":"function","description":"The benchmark's tool","name":"` + name + `","parameters":{"type":"object","properties":{},"additionalProperties":true},"strict":false}],"top_p":1.0,"truncation":"disabled","usage":` + usage + `,"user":null,"metadata":{}}`
	}
	quoted, err := quote(nil, args)
	if err != nil {
		return err
	}
	item := func(status string, arguments []byte) string {
		return `{"id":"` + itemID + `","type":"function_call","status":"` + status + `","arguments":` + string(arguments) + `,"call_id":"` + callID + `","name":"` + name + `"}`
	}
	event(b, "response.created", []byte(`{"type":"response.created","sequence_number":`+next()+`,"response":`+response("in_progress", "", "null")+`}`))
	event(b, "response.in_progress", []byte(`{"type":"response.in_progress","sequence_number":`+next()+`,"response":`+response("in_progress", "", "null")+`}`))
	event(b, "response.output_item.added", []byte(`{"type":"response.output_item.added","sequence_number":`+next()+`,"output_index":0,"item":`+item("in_progress", []byte(`""`))+`}`))
	const pad = "nWru1sTmaAzi9OSdSOtFrey5ScOEy3kp"
	var d []byte
	for i, delta := range deltas {
		d = append(d[:0], `{"type":"response.function_call_arguments.delta","sequence_number":`+next()+`,"item_id":"`+itemID+`","output_index":0,"delta":`...)
		if d, err = quote(d, delta); err != nil {
			return err
		}
		n := max(0, 16-len(delta))
		d = append(d, `,"obfuscation":"`...)
		d = append(d, pad[i%16:i%16+n]...)
		d = append(d, `"}`...)
		event(b, "response.function_call_arguments.delta", d)
	}
	event(b, "response.function_call_arguments.done", []byte(`{"type":"response.function_call_arguments.done","sequence_number":`+next()+`,"item_id":"`+itemID+`","output_index":0,"arguments":`+string(quoted)+`}`))
	event(b, "response.output_item.done", []byte(`{"type":"response.output_item.done","sequence_number":`+next()+`,"output_index":0,"item":`+item("completed", quoted)+`}`))
	usage := `{"input_tokens":1024,"input_tokens_details":{"cached_tokens":0},"output_tokens":` + strconv.Itoa(len(args)/4) + `,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":` + strconv.Itoa(1024+len(args)/4) + `}`
	event(b, "response.completed", []byte(`{"type":"response.completed","sequence_number":`+next()+`,"response":`+response("completed", item("completed", quoted), usage)+`}`))
	return nil
}

// WireRecordings are the recordings of testdata/llm_streams (in the
// repository root) of each wire.
var WireRecordings = map[string][]string{
	WireAnthropic: {
		"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_response.sse",
		"anthropic-sdk-python__tests-lib-streaming-fixtures__tool_use_invalid_json_response.sse",
		"anthropic-sdk-python__tests-lib-streaming-fixtures__incomplete_partial_json_response.sse",
		"pydantic-ai__cassettes__test_anthropic__test_anthropic_mcp_servers_stream.sse",
		"pydantic-ai__cassettes__test_anthropic__test_anthropic_text_editor_code_execution_tool_stream.sse",
		"vercel-ai__anthropic__anthropic-code-execution-20250825.2.chunks.txt",
		"vercel-ai__anthropic__anthropic-json-tool.1.chunks.txt",
		"vercel-ai__anthropic__anthropic-programmatic-tool-calling.1.chunks.txt",
		"vercel-ai__anthropic__anthropic-tool-no-args.chunks.txt",
		"vercel-ai__anthropic__anthropic-tool-search-deferred-regex.chunks.txt",
	},
	WireChat: {
		"openai-python__test_parse_multiple_pydantic_tools__f82268f2.sse",
		"openai-python__test_parse_strict_tools__a247c49c.sse",
		"pydantic-ai__cassettes__test_openai__test_run_stream_sync_streams_real_model.sse",
		"vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse",
		"vercel-ai__deepseek__deepseek-tool-call.chunks.txt",
		"vercel-ai__mistral__mistral-incremental-tool-call.chunks.txt",
	},
	WireResponses: {
		"pydantic-ai__cassettes__test_openai_responses__test_openai_responses_stream.sse",
		"vercel-ai__azure__azure-tool-call.1.chunks.txt",
		"vercel-ai__openai__responses__openai-reasoning-encrypted-content.1.chunks.txt",
		"vercel-ai__openai__responses__openai-tool-search.1.chunks.txt",
	},
}

// RecordingsDir is where the recordings are, from the bench directory.
const RecordingsDir = "../testdata/llm_streams"

// LoadRecording reads a recording of wire as the SSE body of one response:
//   - a *.chunks.txt file (vercel/ai: one data payload a line, the framing
//     stripped) is framed again with "data: LINE\n\n", preceded by
//     "event: TYPE\n" (TYPE the payload's "type") for the two APIs that send
//     event lines, Anthropic and Responses (anthropic-sdk-go ignores an event
//     without one); nothing is added at the end, so the Chat ones end
//     without data: [DONE], as recorded;
//   - a *.sse file is read as it is;
//   - either is cut after the end of its first response (message_stop,
//     data: [DONE], response.completed, failed or incomplete): some hold
//     several HTTP responses one after the other (a pydantic-ai cassette's
//     interactions, the vercel/ai files of a multi-step call), and an
//     adapter stops at the end of the first, while an SDK would read on
//     (anthropic-sdk-go's Accumulate starting the next message over).
func LoadRecording(wire, file string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(RecordingsDir, file))
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(file, ".chunks.txt") {
		if data, err = frameChunks(data, wire != WireChat); err != nil {
			return nil, err
		}
	}
	return firstResponse(wire, data), nil
}

// firstResponse cuts stream after the event that ends its first response,
// if it has one ended by a blank line. The recordings' lines end in LF.
func firstResponse(wire string, stream []byte) []byte {
	for end := 0; ; {
		i := bytes.Index(stream[end:], []byte("\n\n"))
		if i < 0 {
			return stream
		}
		block := stream[end : end+i]
		end += i + 2
		for line := range bytes.Lines(block) {
			data, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\n")), []byte("data:"))
			if !ok {
				continue
			}
			data = bytes.TrimPrefix(data, []byte(" "))
			var v struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(data, &v)
			switch {
			case wire == WireChat && string(data) == sse.Done,
				wire == WireAnthropic && v.Type == "message_stop",
				wire == WireResponses && (v.Type == "response.completed" || v.Type == "response.failed" || v.Type == "response.incomplete"):
				return stream[:end]
			}
		}
	}
}

func frameChunks(chunks []byte, eventLines bool) ([]byte, error) {
	var b bytes.Buffer
	for line := range bytes.Lines(chunks) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		typ := ""
		if eventLines {
			var v struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &v); err != nil {
				return nil, fmt.Errorf("decoding %.40q: %v", line, err)
			}
			typ = v.Type
		}
		event(&b, typ, line)
	}
	return b.Bytes(), nil
}

// RecordingName is a short name for a recording: its file name after the
// last "__", without its extension.
func RecordingName(file string) string {
	name := file[strings.LastIndex(file, "__")+2:]
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".sse"), ".chunks.txt")
	return name
}

// LoadWireStreams returns, for wire, the synthetic stream of each workload
// (createFile, modifyFile, structured) at each of sizes, read from dir
// (NAME-SIZE.json.gz or .json), then the wire's recordings, all in one
// stream named "recordings" if recordings is set.
func LoadWireStreams(wire, dir string, sizes []string, recordings bool) ([]WireStream, error) {
	var ss []WireStream
	for _, size := range sizes {
		for _, w := range []string{"createFile", "modifyFile", "structured"} {
			ws, err := LoadDir(dir, w+"-"+size+".json")
			if err != nil {
				return nil, err
			}
			name := w + "-" + size
			data, err := SyntheticStream(wire, ToolName(name), ws[0].Data)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", wire, name, err)
			}
			s, err := newWireStream(wire, name, [][]byte{data}, nil)
			if err != nil {
				return nil, err
			}
			ss = append(ss, s)
		}
	}
	if recordings {
		var parts [][]byte
		for _, f := range WireRecordings[wire] {
			data, err := LoadRecording(wire, f)
			if err != nil {
				return nil, err
			}
			parts = append(parts, data)
		}
		s, err := newWireStream(wire, "recordings", parts, WireRecordings[wire])
		if err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}

func newWireStream(wire, name string, parts [][]byte, files []string) (WireStream, error) {
	s := WireStream{Name: name, Wire: wire, Parts: parts, Files: files}
	for i, p := range parts {
		n, err := wirecount.Deltas(wire, p)
		if err != nil {
			what := name
			if files != nil {
				what = files[i]
			}
			return s, fmt.Errorf("%s %s: %v", wire, what, err)
		}
		s.Deltas += n
	}
	return s, nil
}

func readFileFrom(dir, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, name))
}
