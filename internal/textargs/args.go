package textargs

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/internal/keyfold"
	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// Args turns the parameters of one call written in text into the events of
// a JSON object (see the package documentation for the order of calls).
// The zero value is not ready: call [Args.Init]. An Args may not be used from
// several goroutines at once.
type Args struct {
	lc    *lifecycle.Base
	tools *schema.Tools
	tool  *schema.Tool
	// Repeat: a parameter given several times in a row is an array, if its
	// schema says so (XML tags). JSONArrays: an Array parameter's value is
	// JSON text (Qwen's template writes lists with tojson).
	repeat, jsonArrays bool

	keys keyfold.Set
	key  []byte // the current parameter's name

	inArray bool        // an array is open: a List, or an Array written as values
	listed  bool        // the open array is a List (it ends with EndList)
	items   schema.Kind // the open array's element Kind
	n       int         // elements begun in the open array

	kind   schema.Kind // the Kind of the text being read
	at     int64       // where that text began
	buf    []byte      // the text of a scalar, until EndText
	part   [utf8.UTFMax]byte
	nPart  int   // bytes of an unfinished UTF-8 sequence in part
	partAt int64 // where that sequence began

	js   *jsontoken.Tokenizer // the JSON text of a JSON value
	jsAt int64                // where that text began
	// want is the Kind the JSON text's value must have, if top: the
	// value is written as JSON (JSONText) and its first event is to come.
	want  schema.Kind
	top   bool
	wrong token.Kind // the first event of a value of the wrong kind

	// Lines is where the tokenizer is, in lines, for its errors.
	Lines Lines
}

// Init readies a for a tokenizer's Base, with the tools' schemas (nil: every
// value a string) and the syntax's ways: repeat (a parameter repeated in a row
// is an array, if its schema says so) and jsonArrays (an Array parameter is
// written as JSON text).
func (a *Args) Init(lc *lifecycle.Base, tools *schema.Tools, repeat, jsonArrays bool) {
	*a = Args{lc: lc, tools: tools, repeat: repeat, jsonArrays: jsonArrays}
	a.keys.SetExact(lc.Cfg.AllowConfusableKeys)
}

// Reset readies a for the next call, keeping its memory.
func (a *Args) Reset() {
	a.tool, a.key = nil, a.key[:0]
	a.inArray, a.listed, a.n, a.nPart = false, false, 0, 0
	a.buf = a.buf[:0]
	a.keys.Reset()
	a.Lines.Reset()
}

// Begin begins the arguments of a call of the named tool: BeginObject,
// reported at at.
func (a *Args) Begin(tool []byte, at int64) error {
	a.tool = a.tools.Tool(tool)
	if !a.lc.Enter() {
		return a.lc.TooDeep(at, "")
	}
	a.keys.Open()
	return a.lc.Emit(token.BeginObject, nil, at)
}

// Value begins the value of the parameter name, whose name began at keyAt
// and whose text begins at at; with Repeat, a Value for the parameter of the
// open array is its next element.
func (a *Args) Value(name []byte, keyAt, at int64) error {
	if a.inArray && !a.listed && string(name) == string(a.key) {
		return a.element(at)
	}
	t, err := a.param(name, keyAt, at)
	if err != nil {
		return err
	}
	if t.Kind == schema.Array && !a.jsonArrays {
		if err := a.openArray(t.Items, false, at); err != nil {
			return err
		}
		return a.element(at)
	}
	if t.Kind == schema.Array {
		t.Kind = schema.JSON
	}
	return a.begin(t.Kind, at)
}

// Form is how a parameter's value is written.
type Form uint8

// Forms of a value.
const (
	// Text is raw text, read as the parameter's type says ([Args.Value]).
	Text Form = iota
	// JSONText is JSON text (DSML's string="false"), whose value must be
	// of the parameter's type: a number for a number, an integer (no
	// fraction or exponent) for an integer, true or false for a boolean,
	// null for null, an array for an array (its elements unchecked, as an
	// array written as JSON text is elsewhere). Any value is taken for a
	// parameter of Kind String or JSON, which package schema gives to
	// parameters it cannot type as one (a string, no type, anyOf or oneOf,
	// a union, an object), and for one the schema does not declare.
	JSONText
)

// ValueOf begins the value of the parameter name written in form (see
// [Args.Value] for the arguments).
func (a *Args) ValueOf(form Form, name []byte, keyAt, at int64) error {
	if form == Text {
		return a.Value(name, keyAt, at)
	}
	t, err := a.param(name, keyAt, at)
	if err != nil {
		return err
	}
	err = a.begin(schema.JSON, at)
	a.want, a.top = t.Kind, true
	if a.tool == nil {
		a.want = schema.JSON // no schema: any value
	} else if _, ok := a.tool.Params[string(name)]; !ok {
		a.want = schema.JSON
	}
	return err
}

// List begins the parameter name written as a list (a caret array), whose
// name began at keyAt and whose list begins at at.
func (a *Args) List(name []byte, keyAt, at int64) error {
	t, err := a.param(name, keyAt, at)
	if err != nil {
		return err
	}
	declared := false
	if a.tool != nil {
		_, declared = a.tool.Params[string(name)]
	}
	switch {
	case t.Kind == schema.JSON:
		t.Items = schema.JSON // a list of JSON texts: an array of arrays, or a union with array
	case declared && t.Kind != schema.Array:
		return a.schemaError(keyAt, "a list is written, but the schema of \""+string(name)+"\" says "+t.Kind.String())
	}
	return a.openArray(t.Items, true, at)
}

// Element begins the next element of the [Args.List], at at.
func (a *Args) Element(at int64) error { return a.element(at) }

// EndList ends the [Args.List], at at.
func (a *Args) EndList(at int64) error { return a.closeArray(at) }

// End ends the arguments: EndObject, reported at at.
func (a *Args) End(at int64) error {
	if a.inArray {
		if err := a.closeArray(at); err != nil {
			return err
		}
	}
	a.keys.Close()
	a.lc.Leave()
	return a.lc.Emit(token.EndObject, nil, at)
}

// Pointer returns the JSON pointer of the value being read: the parameter,
// its element in an array, or the object before any parameter.
func (a *Args) Pointer() jsontext.Pointer {
	if len(a.key) == 0 {
		return ""
	}
	p := jsontext.Pointer("").AppendToken(string(a.key))
	if a.inArray && a.n > 0 {
		p = p.AppendToken(strconv.Itoa(a.n - 1))
	}
	return p
}

// param checks the parameter name and reports its Key: the open array, if
// any, ends first.
func (a *Args) param(name []byte, keyAt, at int64) (schema.Type, error) {
	if a.inArray {
		if err := a.closeArray(keyAt); err != nil {
			return schema.Type{}, err
		}
	}
	a.key = append(a.key[:0], name...)
	t, ok := a.tool.Param(name)
	if !ok {
		detail := "parameter \"" + string(name) + "\" is not in the schema of " + a.tool.Name
		if near := a.tool.Near(string(name)); near != "" {
			detail += " (it has \"" + near + "\")"
		}
		return t, a.schemaError(keyAt, detail)
	}
	if werr := a.keys.Check(name, keyAt); werr != nil {
		return t, lifecycle.WireError(werr, a.Pointer())
	}
	return t, a.lc.Emit(token.Key, name, at)
}

func (a *Args) openArray(items schema.Kind, listed bool, at int64) error {
	if !a.lc.Enter() {
		return a.lc.TooDeep(at, a.Pointer())
	}
	a.inArray, a.listed, a.items, a.n = true, listed, items, 0
	return a.lc.Emit(token.BeginArray, nil, at)
}

func (a *Args) closeArray(at int64) error {
	a.inArray = false
	a.lc.Leave()
	return a.lc.Emit(token.EndArray, nil, at)
}

func (a *Args) element(at int64) error {
	a.n++
	return a.begin(a.items, at)
}

// begin begins text of the given kind at at.
func (a *Args) begin(k schema.Kind, at int64) error {
	a.kind, a.at, a.nPart = k, at, 0
	a.Lines.Mark(at)
	switch k {
	case schema.String:
		return a.lc.Emit(token.BeginString, nil, at)
	case schema.JSON:
		a.jsAt, a.top = at, false
		if a.js == nil {
			depth := a.lc.Cfg.MaxDepth - 2
			a.js = jsontoken.New((*jsonText)(a), token.WithMaxDepth(max(depth, 1)),
				token.WithConfusableKeys(a.lc.Cfg.AllowConfusableKeys))
		} else {
			a.js.Reset((*jsonText)(a))
		}
	default:
		a.buf = a.buf[:0]
	}
	return nil
}

// Text reads the next piece of the value's text, b, which ends at offset
// end.
func (a *Args) Text(b []byte, end int64) error {
	if len(b) == 0 {
		return nil
	}
	switch a.kind {
	case schema.String:
		return a.stringText(b, end)
	case schema.JSON:
		return a.jsonError(a.js.Feed(b))
	}
	a.buf = append(a.buf, b...)
	return nil
}

// EndText ends the value's text at end: the value is complete.
func (a *Args) EndText(end int64) error {
	var err error
	switch a.kind {
	case schema.String:
		if a.nPart > 0 {
			return a.utf8Error(a.partAt)
		}
		err = a.lc.Emit(token.EndString, nil, end)
	case schema.JSON:
		err = a.jsonError(a.js.Close())
	default:
		err = a.scalar(end)
	}
	if err != nil || !a.inArray || a.listed || a.repeat {
		return err
	}
	return a.closeArray(end) // an Array written as one value: one element
}

// stringText reports b as StringData, holding back an unfinished UTF-8
// sequence at its end for the next piece.
func (a *Args) stringText(b []byte, end int64) error {
	start := end - int64(len(b))
	for a.nPart > 0 && len(b) > 0 { // finish the held sequence, a byte at a time
		a.part[a.nPart] = b[0]
		a.nPart++
		b, start = b[1:], start+1
		if !utf8.FullRune(a.part[:a.nPart]) {
			continue
		}
		n := a.nPart
		a.nPart = 0
		if !utf8.Valid(a.part[:n]) {
			return a.utf8Error(a.partAt)
		}
		if err := a.lc.EmitData(a.part[:n], nil, start); err != nil {
			return err
		}
	}
	if len(b) == 0 {
		return nil
	}
	if utf8.Valid(b) {
		return a.lc.EmitData(b, nil, end)
	}
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(b[i:]) { // unfinished: wait for the rest
				a.nPart, a.partAt = copy(a.part[:], b[i:]), start+int64(i)
				break
			}
			// The text before the bad byte goes out first, as it would
			// have in a smaller chunk.
			if i > 0 {
				if err := a.lc.EmitData(b[:i], nil, start+int64(i)); err != nil {
					return err
				}
			}
			return a.utf8Error(start + int64(i))
		}
		i += size
	}
	if i == 0 {
		return nil
	}
	return a.lc.EmitData(b[:i], nil, start+int64(i))
}

func (a *Args) utf8Error(at int64) error {
	return &token.SyntaxError{Offset: at, Pointer: a.Pointer(), Err: token.ErrInvalidUTF8, Detail: "invalid UTF-8 in value"}
}

func (a *Args) schemaError(at int64, detail string) error {
	return &token.SyntaxError{Offset: at, Pointer: a.Pointer(), Err: token.ErrSchema, Detail: detail}
}

// scalar reports the held text as the value its Kind says, at end.
func (a *Args) scalar(end int64) error {
	text := trimSpace(a.buf)
	ok := false
	kind := token.Number
	switch a.kind {
	case schema.Number, schema.Integer:
		ok = isNumber(text, a.kind == schema.Integer)
	case schema.Boolean:
		switch string(text) {
		case "true":
			ok, kind = true, token.True
		case "false":
			ok, kind = true, token.False
		}
	case schema.Null:
		ok, kind = string(text) == "null", token.Null
	}
	if !ok {
		return a.schemaError(a.at, "value "+quoteShort(text)+" is not "+article(a.kind))
	}
	if kind != token.Number {
		text = nil
	}
	return a.lc.Emit(kind, text, end)
}

// isNumber reports whether b is a JSON number, and if integer, one without
// fraction or exponent.
func isNumber(b []byte, integer bool) bool {
	n := jsonwire.NumStart
	for _, c := range b {
		var ok bool
		if n, ok = n.Step(c); !ok {
			return false
		}
	}
	if integer {
		return n == jsonwire.NumZero || n == jsonwire.NumInt
	}
	return n.Complete()
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && jsonwire.IsSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && jsonwire.IsSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// quoteShort quotes b for a message, cut to a readable length.
func quoteShort(b []byte) string {
	const most = 40
	if len(b) > most {
		return strconv.Quote(string(b[:most])) + "..."
	}
	return strconv.Quote(string(b))
}

func article(k schema.Kind) string {
	switch k {
	case schema.Integer:
		return "an integer"
	case schema.Null:
		return "null"
	}
	return "a " + k.String()
}

// jsonText is the handler of a JSON value's tokenizer: its events are the
// value's, at offsets in the whole input.
type jsonText Args

func (j *jsonText) Handle(e token.Event) error {
	a := (*Args)(j)
	if a.top {
		a.top = false
		if !fits(e, a.want) {
			a.wrong = e.Kind
			return errWrongKind
		}
	}
	if e.Kind == token.StringData {
		return a.lc.EmitData(e.Data, e.Escaped, a.jsAt+e.Offset)
	}
	return a.lc.Emit(e.Kind, e.Data, a.jsAt+e.Offset)
}

// errWrongKind stops the JSON value's tokenizer at a value of the wrong
// kind, which jsonError reports.
var errWrongKind = errors.New("textargs: value of the wrong kind")

// fits reports whether e, the first event of a JSON value, begins a value
// of kind k.
func fits(e token.Event, k schema.Kind) bool {
	switch k {
	case schema.Number:
		return e.Kind == token.Number
	case schema.Integer:
		return e.Kind == token.Number && isNumber(e.Data, true)
	case schema.Boolean:
		return e.Kind == token.True || e.Kind == token.False
	case schema.Null:
		return e.Kind == token.Null
	case schema.Array:
		return e.Kind == token.BeginArray
	}
	return true
}

// kindNames name the values the first event of a JSON value begins.
var kindNames = map[token.Kind]string{token.BeginString: "a string", token.Number: "a number",
	token.True: "a boolean", token.False: "a boolean", token.Null: "null",
	token.BeginArray: "an array", token.BeginObject: "an object"}

// jsonError returns err, from the JSON value's tokenizer, with its offset
// and pointer in the whole input.
func (a *Args) jsonError(err error) error {
	if err == errWrongKind {
		what := kindNames[a.wrong]
		if a.want == schema.Integer && a.wrong == token.Number {
			what = "a number that is not an integer"
		}
		return a.schemaError(a.at, "the JSON value is "+what+", but the schema says "+a.want.String())
	}
	se, ok := err.(*token.SyntaxError)
	if !ok {
		return err
	}
	return &token.SyntaxError{Offset: a.jsAt + se.Offset, Pointer: a.Pointer() + se.Pointer,
		Err: se.Err, Detail: "in the JSON text of the value: " + se.Detail}
}
