package guard

import (
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// AppendJSON appends r as one line of JSON, the audit log's:
//
//	{"time":"2026-11-27T10:00:00Z","wire":"anthropic","index":1,"id":"toolu_1","name":"write_file",
//	 "mode":"skip","rule":2,"decided_at_byte":22,"action":"blocked","argument_bytes":11146,"upstream_cancelled":true}
//
// with "server":true for a call the provider runs and a "reason" when it
// has one; "mode" and "rule" are null when no decision came, and
// "decided_at_byte" -1. The strings the model wrote (id, name) are JSON
// strings, escaped as JSON escapes them: a log reader that shows them to a
// person must escape them again for a terminal. No argument value is in
// it, nor anything of the request.
func (r Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"time":`...)
	b, _ = jsontext.AppendQuote(b, r.Time.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"wire":`...)
	b, _ = jsontext.AppendQuote(b, r.Wire.String())
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, r.Call.Index, 10)
	b = append(b, `,"id":`...)
	b, _ = jsontext.AppendQuote(b, r.Call.ID)
	b = append(b, `,"name":`...)
	b, _ = jsontext.AppendQuote(b, r.Call.Name)
	if r.Call.Server {
		b = append(b, `,"server":true`...)
	}
	if r.Decision.Decided() {
		b = append(b, `,"mode":`...)
		b, _ = jsontext.AppendQuote(b, r.Decision.Mode.String())
		b = append(b, `,"rule":`...)
		b = strconv.AppendInt(b, int64(r.Decision.Rule), 10)
	} else {
		b = append(b, `,"mode":null,"rule":null`...)
	}
	b = append(b, `,"decided_at_byte":`...)
	b = strconv.AppendInt(b, r.DecidedAt, 10)
	b = append(b, `,"action":`...)
	b, _ = jsontext.AppendQuote(b, r.Action.String())
	if r.Reason != "" {
		b = append(b, `,"reason":`...)
		b, _ = jsontext.AppendQuote(b, r.Reason)
	}
	b = append(b, `,"argument_bytes":`...)
	b = strconv.AppendInt(b, r.ArgumentBytes, 10)
	b = append(b, `,"upstream_cancelled":`...)
	b = strconv.AppendBool(b, r.UpstreamCancelled)
	return append(b, "}\n"...)
}
