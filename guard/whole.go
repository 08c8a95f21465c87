package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/keyfold"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Whole judges a response that is not a stream, whole: each call it holds
// is judged on its complete arguments, by the same policies as
// [Guard.Filter]'s, and a blocked call is replaced by its notice (Anthropic:
// a text block in its place; Chat Completions: left out of tool_calls, the
// notice in the message's content; Responses: a message item in its place),
// the stop reason saying tool_use or tool_calls only if a call the client
// runs remains. k may be Unknown: the body's shape tells the wire. A body the
// gateway cannot read, or that two readers could read differently, is an
// error; a body of no known shape that names no tool call is returned as
// it is.
func (g *Guard) Whole(k wire.Kind, body []byte) ([]byte, error) {
	if err := checkNames(body); err != nil {
		return nil, err
	}
	if k == wire.Unknown {
		k = shapeOf(body)
	}
	switch k {
	case wire.Anthropic:
		return g.wholeAnthropic(body)
	case wire.OpenAIChat:
		return g.wholeChat(body)
	case wire.OpenAIResponses:
		return g.wholeResponses(body)
	case wire.Gemini:
		return g.wholeGemini(body)
	}
	for _, s := range []string{`"tool_use"`, `"tool_calls"`, `"function_call"`, `"functionCall"`} {
		if bytes.Contains(body, []byte(s)) {
			return nil, errors.New("guard: a response that names tool calls, of no shape the gateway reads")
		}
	}
	return body, nil
}

// checkNames refuses a JSON text that readers could read differently: not
// valid, or with an object whose member names repeat, or are equal under
// case folding (Go's encoding/json v1 matches them so).
func checkNames(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	var keys keyfold.Set
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("guard: the response: %w", err)
		}
		switch tok.Kind() {
		case '{':
			keys.Open()
		case '}':
			keys.Close()
		case '"':
			if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 1 {
				// A member name.
				if earlier, ok := keys.Add([]byte(tok.String())); !ok {
					return fmt.Errorf("guard: the response's member names %q and %q at %s are equal, in some case", earlier, tok.String(), dec.StackPointer().Parent())
				}
			}
		}
	}
}

// unmarshal decodes body into v, a pointer to a struct. A member whose name
// is none of those v reads but equal to one of them under case folding
// ("Tool_calls") is refused: encoding/json v1, and the SDKs' readers built
// like it, would read it where the gateway would not.
func unmarshal(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return err
	}
	folded := reflect.New(reflect.TypeOf(v).Elem())
	if err := json.Unmarshal(body, folded.Interface(), json.MatchCaseInsensitiveNames(true)); err != nil {
		return err
	}
	if !reflect.DeepEqual(v, folded.Interface()) {
		return errors.New("a member name that differs from one the gateway reads in case alone")
	}
	return nil
}

// shapeOf tells a whole response's wire from its members.
func shapeOf(body []byte) wire.Kind {
	var v struct {
		Type       string         `json:"type"`
		Object     string         `json:"object"`
		Choices    jsontext.Value `json:"choices"`
		Output     jsontext.Value `json:"output"`
		Candidates jsontext.Value `json:"candidates"`
	}
	if json.Unmarshal(body, &v) != nil {
		return wire.Unknown
	}
	switch {
	case v.Type == "message":
		return wire.Anthropic
	case v.Object == "chat.completion" || v.Choices != nil:
		return wire.OpenAIChat
	case v.Object == "response" || v.Output != nil:
		return wire.OpenAIResponses
	case v.Candidates != nil:
		return wire.Gemini
	}
	return wire.Unknown
}

// wholeCall is a call of a whole response, to judge.
type wholeCall struct {
	call fragment.Call
	args []byte
	at   int    // its position, where the response holds it
	bad  string // why its arguments are not what the wire allows
}

// verdicts judges calls, each on its complete arguments, and returns for
// each whether it is blocked, and the notice if so. It reports the
// Records.
func (g *Guard) verdicts(k wire.Kind, calls []wholeCall) (blocked []bool, notices []string) {
	var opts []toolcall.Option
	if g.cfg.Policy != nil {
		opts = append(opts, toolcall.WithPolicy(g.cfg.Policy))
	}
	r := toolcall.New(opts...)
	for i, c := range calls {
		c.call.Index = int64(i)
		r.Start(c.call, nil)
		r.Chunk(int64(i), c.args)
		r.Stop(int64(i))
	}
	for _, res := range r.End() {
		c := calls[res.Call.Index]
		reason := ""
		block := false
		switch {
		case c.bad != "":
			block, reason = true, c.bad
		case res.Err != nil && !errors.Is(res.Err, toolcall.ErrNotApproved):
			block, reason = true, "its arguments failed: "+res.Err.Error()
		case g.cfg.Policy == nil || g.cfg.Policy(c.call.Name) == nil:
		default:
			block = !forwardable(res.Verdict, g.cfg.BlockAsk)
		}
		blocked = append(blocked, block)
		notice := ""
		if block {
			notice = g.cfg.Notice(c.call, res.Verdict.Decision, reason)
		}
		notices = append(notices, notice)
		if g.cfg.OnCall != nil {
			rec := Record{Time: time.Now(), Wire: k, Call: c.call, Decision: res.Verdict.Decision, DecidedAt: res.Verdict.At,
				Action: Forwarded, Reason: reason, ArgumentBytes: res.Size}
			rec.Call.Index = int64(c.at)
			if block {
				rec.Action = Blocked
			}
			if !res.Verdict.Decided() {
				rec.DecidedAt = -1
			}
			g.cfg.OnCall(rec)
		}
	}
	return blocked, notices
}

// forwardable reports whether a call of the verdict v reaches the client.
func forwardable(v policy.Verdict, blockAsk bool) bool {
	switch v.Mode {
	case policy.Skip:
		return false
	case policy.Ask:
		return !blockAsk
	case policy.Unattended:
		return v.Unattended() || !blockAsk // a suspect path makes it ask
	case policy.Edit:
		return true
	}
	return false
}

func (g *Guard) wholeAnthropic(body []byte) ([]byte, error) {
	var msg struct {
		Content []struct {
			Type  string         `json:"type"`
			ID    string         `json:"id"`
			Name  string         `json:"name"`
			Input jsontext.Value `json:"input"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	if err := unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("guard: the message: %w", err)
	}
	var calls []wholeCall
	for i, b := range msg.Content {
		switch b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			c := wholeCall{call: fragment.Call{ID: b.ID, Name: b.Name, Server: b.Type != "tool_use"}, args: b.Input, at: i}
			if b.Input.Kind() != '{' {
				c.bad = "its input is not an object"
			}
			calls = append(calls, c)
		}
	}
	blocked, notices := g.verdicts(wire.Anthropic, calls)
	replace := map[string]jsontext.Value{}
	clientCalls := false
	for i, c := range calls {
		if blocked[i] {
			replace["/content/"+strconv.Itoa(c.at)] = textBlock(notices[i])
		} else if !c.call.Server {
			clientCalls = true
		}
	}
	if len(replace) == 0 {
		return body, nil
	}
	if !clientCalls && msg.StopReason == "tool_use" {
		replace["/stop_reason"] = jsontext.Value(`"end_turn"`)
	}
	return replaceAt(body, replace)
}

// wholeGemini judges a generateContent response: the functionCall parts
// of candidate 0, the first element; a call in another candidate is
// refused, since a client reading that one would run what no policy
// judged. A blocked call's part becomes a text part with its notice.
func (g *Guard) wholeGemini(body []byte) ([]byte, error) {
	var r struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					FunctionCall *struct {
						ID   string         `json:"id"`
						Name string         `json:"name"`
						Args jsontext.Value `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if err := unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("guard: the response: %w", err)
	}
	var calls []wholeCall
	for ci, c := range r.Candidates {
		for pi, p := range c.Content.Parts {
			fc := p.FunctionCall
			switch {
			case fc == nil:
				continue
			case ci > 0:
				return nil, errors.New("guard: a function call in a candidate other than the first, which the gateway does not judge")
			}
			call := wholeCall{call: fragment.Call{ID: fc.ID, Name: fc.Name}, args: fc.Args, at: pi}
			switch fc.Args.Kind() {
			case 0, 'n':
				call.args = []byte("{}") // as the SDKs give it
			case '{':
			default:
				call.bad = "its args are not an object"
			}
			calls = append(calls, call)
		}
	}
	blocked, notices := g.verdicts(wire.Gemini, calls)
	replace := map[string]jsontext.Value{}
	for i, c := range calls {
		if blocked[i] {
			replace["/candidates/0/content/parts/"+strconv.Itoa(c.at)] = textPart(notices[i])
		}
	}
	if len(replace) == 0 {
		return body, nil
	}
	return replaceAt(body, replace)
}

func (g *Guard) wholeChat(body []byte) ([]byte, error) {
	var c struct {
		Choices []struct {
			Index   int64 `json:"index"`
			Message struct {
				Content   jsontext.Value `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("guard: the completion: %w", err)
	}
	replace := map[string]jsontext.Value{}
	drop := map[string]bool{}
	for ci, ch := range c.Choices {
		var calls []wholeCall
		for i, tc := range ch.Message.ToolCalls {
			if tc.Type != "" && tc.Type != "function" {
				return nil, fmt.Errorf("guard: a tool call of type %q", tc.Type)
			}
			calls = append(calls, wholeCall{call: fragment.Call{ID: tc.ID, Name: tc.Function.Name}, args: []byte(tc.Function.Arguments), at: i})
		}
		blocked, notices := g.verdicts(wire.OpenAIChat, calls)
		var text []string
		remain := 0
		base := "/choices/" + strconv.Itoa(ci) + "/message"
		for i, b := range blocked {
			if b {
				drop[base+"/tool_calls/"+strconv.Itoa(i)] = true
				text = append(text, notices[i])
			} else {
				remain++
			}
		}
		if len(text) == 0 {
			continue
		}
		var content string
		if ch.Message.Content.Kind() == '"' {
			json.Unmarshal(ch.Message.Content, &content)
		}
		if content != "" {
			text = append([]string{content}, text...)
		}
		q, _ := jsontext.AppendQuote(nil, strings.Join(text, "\n\n"))
		replace[base+"/content"] = q
		if remain == 0 && ch.FinishReason == "tool_calls" {
			replace["/choices/"+strconv.Itoa(ci)+"/finish_reason"] = jsontext.Value(`"stop"`)
		}
	}
	if len(replace) == 0 {
		return body, nil
	}
	return rewrite(body, func(p jsontext.Pointer) bool {
		return drop[string(p)] || replace[string(p)] != nil
	}, func(p jsontext.Pointer, v jsontext.Value) (jsontext.Value, bool) {
		if drop[string(p)] {
			return nil, false
		}
		return replace[string(p)], true
	})
}

func (g *Guard) wholeResponses(body []byte) ([]byte, error) {
	var r struct {
		Output []struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"output"`
	}
	if err := unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("guard: the response: %w", err)
	}
	var calls []wholeCall
	for i, it := range r.Output {
		switch it.Type {
		case "function_call":
			calls = append(calls, wholeCall{call: fragment.Call{ID: it.CallID, Name: it.Name}, args: []byte(it.Arguments), at: i})
		case "mcp_call":
			calls = append(calls, wholeCall{call: fragment.Call{ID: it.ID, Name: it.Name, Server: true}, args: []byte(it.Arguments), at: i})
		}
	}
	blocked, notices := g.verdicts(wire.OpenAIResponses, calls)
	replace := map[string]jsontext.Value{}
	for i, c := range calls {
		if blocked[i] {
			replace["/output/"+strconv.Itoa(c.at)] = noticeItem(int64(c.at), notices[i], "completed")
		}
	}
	if len(replace) == 0 {
		return body, nil
	}
	return replaceAt(body, replace)
}

// replaceAt rewrites the values of body at the pointers of replace.
func replaceAt(body []byte, replace map[string]jsontext.Value) ([]byte, error) {
	return rewrite(body, func(p jsontext.Pointer) bool { return replace[string(p)] != nil },
		func(p jsontext.Pointer, _ jsontext.Value) (jsontext.Value, bool) { return replace[string(p)], true })
}
