package main

// This file is how replay finds where one response of its input ends and
// the next begins. The wires' readers read a body to its end, as the SDKs
// do, and refuse an event after a response's last; a recording may hold
// several responses one after the other. responseCut gives a wire's reader
// one response's bytes and then io.EOF.

import (
	"errors"
	"io"

	"github.com/argstream/argstream/wire/sse"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// responseCut reads one response of wire from src: the bytes of its
// events, as they came, up to its last event and what may follow that in
// the same response (Anthropic's ping, the Responses API's data [DONE]),
// then [io.EOF]. Knowing that the response ended takes reading the event
// after it, the first of the next response: next holds its bytes.
//
// A response ends at Anthropic's message_stop; at the Chat Completions'
// data [DONE] or, in recordings without it, at a chunk of another id once
// a chunk has had a finish_reason; at the Responses API's
// response.completed, response.incomplete or response.failed; at Gemini's
// finishReason (and the events of metadata that follow it); at Ollama's
// line that says done; at Cohere's message-end. Events are given whole: the wire's reader would act
// on none before its end.
type responseCut struct {
	wire string
	src  io.Reader
	rd   *sse.Reader // over src, WithRaw: the events' bytes as they came
	rest io.Reader   // src, once rd failed: the rest is given as it comes
	out  []byte      // bytes read and not given yet
	next []byte      // the first event of the next response
	err  error       // io.EOF, or rd's error, given once out is
	last bool        // the response's last event was read

	chatID   string // the Chat Completions stream's id
	finished bool   // a chunk had a finish_reason
}

func newResponseCut(wire string, src io.Reader) *responseCut {
	return &responseCut{wire: wire, src: src, rd: sse.NewReader(src, sse.WithRaw())}
}

func (c *responseCut) Read(p []byte) (int, error) {
	for len(c.out) == 0 && c.err == nil {
		c.step()
	}
	switch {
	case len(c.out) == 0 && c.rest != nil:
		return c.rest.Read(p)
	case len(c.out) == 0:
		return 0, c.err
	}
	n := copy(p, c.out)
	c.out = c.out[:copy(c.out, c.out[n:])]
	return n, nil
}

// step reads the next block of the input into out, or next.
func (c *responseCut) step() {
	if !c.rd.Next() {
		// The rest passes as it is: the wire's reader finds what ended
		// the events, where the cut found it.
		c.out = append(c.out, c.rd.Rest()...)
		c.err = io.EOF
		if c.rd.Err() != nil {
			c.rest = c.src
		}
		return
	}
	ev := c.rd.Event()
	if !ev.IsEvent() {
		c.out = append(c.out, ev.Raw...)
		return
	}
	switch ends, follows := c.classify(ev); {
	case c.last && !follows:
		c.next = append(c.next[:0], ev.Raw...)
		c.err = io.EOF
	default:
		c.out = append(c.out, ev.Raw...)
		c.last = c.last || ends
	}
}

// classify says whether ev is the last event of its response (ends), and
// whether it may follow the last one in the same response (follows).
func (c *responseCut) classify(ev sse.Event) (ends, follows bool) {
	if ev.IsDone() {
		return true, true
	}
	var d struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Choices []struct {
			FinishReason jsontext.Value `json:"finish_reason"`
		} `json:"choices"`
		Candidates []struct {
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		PromptFeedback struct {
			BlockReason string `json:"blockReason"`
		} `json:"promptFeedback"`
		Done jsontext.Value `json:"done"`
	}
	typ := string(ev.Type)
	if err := json.Unmarshal(ev.Data, &d); err != nil && !errors.As(err, new(*json.SemanticError)) {
		return false, false // the wire's reader says what is wrong
	}
	if typ == "" {
		typ = d.Type
	}
	switch c.wire {
	case "anthropic":
		return typ == "message_stop", typ == "ping"
	case "openai-responses":
		return typ == "response.completed" || typ == "response.incomplete" || typ == "response.failed", false
	case "gemini":
		// A finishReason ends the response; events of metadata alone
		// (usage) may follow it.
		ends = d.PromptFeedback.BlockReason != ""
		for _, c := range d.Candidates {
			ends = ends || c.FinishReason != ""
		}
		return ends, d.Candidates == nil
	case "ollama":
		return string(d.Done) == "true", false
	case "cohere":
		return typ == "message-end", false
	case "openai-chat":
		if c.chatID == "" {
			c.chatID = d.ID
		}
		if d.ID != "" && d.ID != c.chatID && c.finished {
			c.last = true // this chunk is the next response's
			return false, false
		}
		for _, ch := range d.Choices {
			if f := ch.FinishReason; len(f) > 0 && f.Kind() != 'n' {
				c.finished = true
			}
		}
	}
	return false, false
}
