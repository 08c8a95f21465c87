// Package chatchunk is what the writers of Chat Completions chunks share:
// the gateway (package guard), which writes chunks of its own into a
// provider's stream, and package toolparser, which writes a whole stream
// of them from a raw model's text.
package chatchunk

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Head returns the id, object, created and model members of the chunk
// data, each followed by a comma, for the chunks a writer adds to its
// stream: openai-go's accumulator drops a chunk whose id is not the
// stream's. It returns an empty (not nil) slice for data that is not a
// JSON object.
func Head(data []byte) []byte {
	var v struct {
		ID      jsontext.Value `json:"id"`
		Object  jsontext.Value `json:"object"`
		Created jsontext.Value `json:"created"`
		Model   jsontext.Value `json:"model"`
	}
	head := []byte{}
	if json.Unmarshal(data, &v) != nil {
		return head
	}
	for _, m := range []struct {
		name string
		v    jsontext.Value
	}{{"id", v.ID}, {"object", v.Object}, {"created", v.Created}, {"model", v.Model}} {
		if len(m.v) > 0 {
			head = append(head, `"`+m.name+`":`...)
			head = append(head, m.v...)
			head = append(head, ',')
		}
	}
	return head
}

// AppendError appends the data of an error event, as the OpenAI SDKs read
// one (openai-go and the Node SDK raise a chunk's "error" member), with
// the message msg and the error type typ.
func AppendError(dst []byte, typ, msg string) []byte {
	dst = append(dst, `{"error":{"message":`...)
	dst, _ = jsontext.AppendQuote(dst, msg)
	dst = append(dst, `,"type":`...)
	dst, _ = jsontext.AppendQuote(dst, typ)
	return append(dst, `,"param":null,"code":null}}`...)
}
