package geministream

// The decoding of an event's data into the Reader's reused fields, by the
// token decoder of package adapter: the whole data is decoded, and
// checked, before anything is done with it.

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/argstream/argstream/wire/internal/adapter"
	"github.com/go-json-experiment/json/jsontext"
)

// The member names of the objects of a GenerateContentResponse that the
// Reader reads.
var (
	rootNames     = adapter.Names{"candidates", "error", "promptFeedback"}
	errorNames    = adapter.Names{"code", "message", "status"}
	feedbackNames = adapter.Names{"blockReason"}
	candNames     = adapter.Names{"index", "content", "finishReason"}
	contentNames  = adapter.Names{"parts"}
	partNames     = adapter.Names{"text", "thought", "functionCall"}
	callNames     = adapter.Names{"name", "id", "args", "partialArgs", "willContinue"}
	partialNames  = adapter.Names{"jsonPath", "stringValue", "numberValue", "boolValue", "nullValue", "willContinue"}
)

// parse decodes the fields of one event's data into r: by the fast path
// (fast.go) if it reads them, or else by the token decoder.
func (r *Reader) parse(data []byte) error {
	if r.fastParse(data) {
		return nil
	}
	return r.parseSlow(data)
}

// parseSlow decodes the fields of one event's data into r with the token
// decoder.
func (r *Reader) parseSlow(data []byte) error {
	r.resetEvent()
	r.dec.Reset(data)
	if err := r.dec.Root(rootNames, r.field); err != nil {
		return r.malformed(err)
	}
	return nil
}

// resetEvent empties the fields of the event read.
func (r *Reader) resetEvent() {
	r.hasError = false
	r.errCode, r.errMessage, r.errStatus = r.errCode[:0], r.errMessage[:0], r.errStatus[:0]
	r.block = r.block[:0]
	r.hasChosen = false
}

// spelling refuses key, a member name of the object at where that Read
// does not read, if it is one of known written in snake case
// ("function_call"): the Python SDK's models take either spelling
// (pydantic's populate_by_name), the Go SDK only the camel case one.
func (r *Reader) spelling(key []byte, known adapter.Names, where func() string) error {
	if bytes.IndexByte(key, '_') < 0 {
		return nil
	}
	r.scratch = r.scratch[:0]
	for _, c := range key {
		if c != '_' {
			r.scratch = append(r.scratch, c)
		}
	}
	for _, name := range known {
		if bytes.EqualFold(r.scratch, []byte(name)) {
			return fmt.Errorf("%s: member name %q is %q in another spelling", where(), key, name)
		}
	}
	return nil
}

func (r *Reader) field(key []byte) (err error) {
	switch string(key) {
	case "candidates":
		return r.dec.Array(r.candidate)
	case "error":
		if r.dec.Kind() == 'n' {
			return errors.New("/error is null")
		}
		r.hasError = true
		return r.dec.Object(errorNames, r.errorField)
	case "promptFeedback":
		return r.dec.Object(feedbackNames, r.feedbackField)
	}
	if err := r.spelling(key, rootNames, func() string { return "/" }); err != nil {
		return err
	}
	return r.dec.Skip()
}

func (r *Reader) errorField(key []byte) (err error) {
	switch string(key) {
	case "code":
		// A number, as the API sends it; its JSON text is kept.
		switch r.dec.Kind() {
		case '"', 'n':
			r.errCode, _, err = r.dec.NullableString(r.errCode)
		default:
			v, verr := r.dec.Value()
			r.errCode, err = append(r.errCode[:0], v...), verr
		}
	case "message":
		r.errMessage, _, err = r.dec.NullableString(r.errMessage)
	case "status":
		r.errStatus, _, err = r.dec.NullableString(r.errStatus)
	default:
		err = r.dec.Skip()
	}
	return err
}

func (r *Reader) feedbackField(key []byte) (err error) {
	if string(key) == "blockReason" {
		r.block, _, err = r.dec.NullableString(r.block)
		return err
	}
	return r.dec.Skip()
}

// candidate reads the element i of "candidates" into r.cur, and keeps it
// in r.chosen if it is candidate 0.
func (r *Reader) candidate(i int) error {
	c := &r.cur
	c.index, c.finish, c.n, c.calls = 0, c.finish[:0], 0, 0
	r.candPos = i
	if err := r.dec.Object(candNames, r.candField); err != nil {
		return err
	}
	if c.index != 0 {
		if c.calls > 0 {
			// Only candidate 0's calls are judged; the SDKs' helpers
			// (FunctionCalls) read the first candidate of each event,
			// whichever it is.
			return fmt.Errorf("/candidates/%d, candidate %d, has a function call: only candidate 0 is read", i, c.index)
		}
		return nil
	}
	switch {
	case r.hasChosen:
		return fmt.Errorf("/candidates/%d is candidate 0 again", i)
	case i != 0:
		return fmt.Errorf("/candidates/%d is candidate 0, not first: the SDKs' helpers read the first", i)
	}
	r.cur, r.chosen, r.hasChosen = r.chosen, r.cur, true
	return nil
}

func (r *Reader) candField(key []byte) (err error) {
	c := &r.cur
	switch string(key) {
	case "index":
		c.index, err = r.dec.Index()
		return err
	case "content":
		return r.dec.Object(contentNames, r.contentField)
	case "finishReason":
		c.finish, _, err = r.dec.NullableString(c.finish)
		return err
	}
	if err := r.spelling(key, candNames, r.candWhere); err != nil {
		return err
	}
	return r.dec.Skip()
}

func (r *Reader) candWhere() string { return fmt.Sprintf("/candidates/%d", r.candPos) }

func (r *Reader) contentField(key []byte) error {
	if string(key) == "parts" {
		return r.dec.Array(r.part)
	}
	return r.dec.Skip()
}

// part reads the element i of a candidate's parts into the next part of
// r.cur, reusing its buffers.
func (r *Reader) part(i int) error {
	p := r.nextPart()
	if err := r.dec.Object(partNames, r.partField); err != nil {
		return err
	}
	if p.kind == partCall {
		r.cur.calls++
	}
	return nil
}

// nextPart returns the next part of r.cur, emptied, its buffers reused.
func (r *Reader) nextPart() *part {
	c := &r.cur
	if c.n == len(c.parts) {
		c.parts = append(c.parts, part{})
	}
	p := &c.parts[c.n]
	c.n++
	p.kind, p.thought, p.more, p.partial, p.hasArgs, p.np = partOther, false, false, false, false, 0
	p.text, p.name, p.id, p.args, p.whole = p.text[:0], p.name[:0], p.id[:0], p.args[:0], nil
	return p
}

// partWhere is the JSON pointer of the part being read.
func (r *Reader) partWhere() string {
	return fmt.Sprintf("/candidates/%d/content/parts/%d", r.candPos, r.cur.n-1)
}

// setKind makes the part being read a text or a function call: a part is
// one of them, and one that is both would be read as either.
func (r *Reader) setKind(kind partKind) error {
	p := &r.cur.parts[r.cur.n-1]
	if p.kind != partOther {
		return fmt.Errorf("%s holds both text and a functionCall", r.partWhere())
	}
	p.kind = kind
	return nil
}

func (r *Reader) partField(key []byte) (err error) {
	p := &r.cur.parts[r.cur.n-1]
	switch string(key) {
	case "text":
		var ok bool
		if p.text, ok, err = r.dec.NullableString(p.text); err != nil || !ok {
			return err
		}
		return r.setKind(partText)
	case "thought":
		p.thought, err = r.bool(r.partWhere, "thought")
		return err
	case "functionCall":
		if r.dec.Kind() == 'n' {
			return r.dec.Skip()
		}
		if err := r.setKind(partCall); err != nil {
			return err
		}
		return r.dec.Object(callNames, r.callField)
	}
	if err := r.spelling(key, partNames, r.partWhere); err != nil {
		return err
	}
	return r.dec.Skip()
}

func (r *Reader) callWhere() string { return r.partWhere() + "/functionCall" }

func (r *Reader) callField(key []byte) (err error) {
	p := &r.cur.parts[r.cur.n-1]
	switch string(key) {
	case "name":
		p.name, _, err = r.dec.NullableString(p.name)
	case "id":
		p.id, _, err = r.dec.NullableString(p.id)
	case "args":
		switch r.dec.Kind() {
		case 'n':
			return r.dec.Skip()
		case '{':
		default:
			if err := r.dec.Skip(); err != nil {
				return err
			}
			return fmt.Errorf("%s/args is not an object", r.callWhere())
		}
		v, err := r.dec.Value()
		p.args, p.hasArgs = append(p.args[:0], v...), true
		return err
	case "partialArgs":
		if r.dec.Kind() == 'n' {
			return r.dec.Skip()
		}
		p.partial = true
		return r.dec.Array(r.partialArg)
	case "willContinue":
		p.more, err = r.bool(r.callWhere, "willContinue")
	default:
		if err := r.spelling(key, callNames, r.callWhere); err != nil {
			return err
		}
		err = r.dec.Skip()
	}
	return err
}

// partialArg reads the element i of the partialArgs of the part being read
// into its next partialArg, reusing its buffers.
func (r *Reader) partialArg(i int) error {
	p := &r.cur.parts[r.cur.n-1]
	if p.np == len(p.pargs) {
		p.pargs = append(p.pargs, partialArg{})
	}
	a := &p.pargs[p.np]
	p.np++
	a.path, a.val = a.path[:0], a.val[:0]
	a.kind, a.values, a.more = 0, 0, false
	r.pargPos = i
	return r.dec.Object(partialNames, r.partialField)
}

func (r *Reader) partialWhere() string {
	return fmt.Sprintf("%s/partialArgs/%d", r.callWhere(), r.pargPos)
}

func (r *Reader) partialField(key []byte) (err error) {
	p := &r.cur.parts[r.cur.n-1]
	a := &p.pargs[p.np-1]
	var kind byte
	switch string(key) {
	case "jsonPath":
		a.path, err = r.dec.String(a.path)
		return err
	case "willContinue":
		a.more, err = r.bool(r.partialWhere, "willContinue")
		return err
	case "stringValue", "numberValue", "boolValue", "nullValue":
		// One value, of one kind; a null, which the SDKs read as no
		// value (Go) or as no such member (JavaScript), is refused.
		kind = key[0]
		if string(key) == "nullValue" {
			kind = 'z'
		}
	default:
		if err := r.spelling(key, partialNames, r.partialWhere); err != nil {
			return err
		}
		return r.dec.Skip()
	}
	k := r.dec.Kind()
	v, err := r.dec.Value()
	if err != nil {
		return err
	}
	switch {
	case k == 'n':
		return fmt.Errorf("%s/%s is null", r.partialWhere(), key)
	case kind == 's' && k != '"', kind == 'n' && k != '0', kind == 'b' && k != 't' && k != 'f':
		return fmt.Errorf("%s/%s is not a %s", r.partialWhere(), key, map[byte]string{'s': "string", 'n': "number", 'b': "boolean"}[kind])
	case kind == 'z' && string(v) != `"NULL_VALUE"`:
		return fmt.Errorf("%s/nullValue is not \"NULL_VALUE\"", r.partialWhere())
	}
	a.kind = kind
	a.values++
	if kind == 's' {
		// The decoded text: v is borrowed, and holds it quoted.
		a.val, err = appendUnquoted(a.val[:0], v)
		return err
	}
	a.val = append(a.val[:0], v...)
	return nil
}

// appendUnquoted appends the text of the JSON string v.
func appendUnquoted(dst, v []byte) ([]byte, error) {
	return jsontext.AppendUnquote(dst, v)
}

// bool reads a true, false or null (false) value, the member name of the
// object at where.
func (r *Reader) bool(where func() string, name string) (bool, error) {
	v, err := r.dec.Value()
	if err != nil {
		return false, err
	}
	switch string(v) {
	case "true":
		return true, nil
	case "false", "null":
		return false, nil
	}
	return false, fmt.Errorf("%s/%s is not a boolean", where(), name)
}
