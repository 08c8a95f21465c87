package render

// This file is structured in the following way:
//
//   - Style, the options and New: how a Renderer is made, and what it
//     finds out about its terminal;
//   - Renderer's methods: SetWidth, Sink, Partial, Write, Text, Err, Reset.
//
// The sink of one call, which Sink makes, is call.go's.

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"golang.org/x/term"
)

// Style is how a [Renderer] shows arguments. It is a plain value.
type Style uint8

const (
	// FunctionCall shows a call as a function call, the arguments inline:
	//
	//	Calling tool fs_create_file(path: "src/main.rs", content: …
	//	  │ fn main() {
	//	  │ }
	//	  )
	//
	// with the long strings below it, whole, as blocks of lines.
	FunctionCall Style = iota
	// JSON shows the arguments as pretty-printed JSON below the header:
	//
	//	Calling tool fs_create_file
	//	{
	//	  "path": "src/main.rs",
	//	  "content": "fn main() {\n}\n"
	//	}
	JSON
)

// String returns the style's name as RFD D26 spells it: "function_call"
// or "json" (docs/design.md, "RFD D26's phases").
func (s Style) String() string {
	switch s {
	case FunctionCall:
		return "function_call"
	case JSON:
		return "json"
	}
	return "Style(" + strconv.Itoa(int(s)) + ")"
}

// DefaultWidth is the width, in columns, of an output that is not a
// terminal, or whose size is unknown.
const DefaultWidth = 80

// DefaultInline is the longest string, in bytes, shown inline when it has
// no newline (see [WithInline]).
const DefaultInline = 64

// Option configures a [Renderer]. An Option is not changed by use.
type Option func(*config)

type config struct {
	style  Style
	color  int // 0: detect, 1: on, -1: off
	width  int // -1: detect
	inline int
	fd     uintptr
	hasFd  bool // fd is the terminal's, from WithTerminal
	hard   bool // wrap as on a terminal, whatever the output (tests)
}

// WithStyle sets the style: [FunctionCall] (the default) or [JSON].
func WithStyle(s Style) Option { return func(c *config) { c.style = s } }

// WithColor turns colour on or off, whatever the output is. Without it,
// colour is on when the output is a terminal (see [WithTerminal]) and the
// NO_COLOR environment variable is unset or empty.
func WithColor(on bool) Option {
	return func(c *config) {
		c.color = -1
		if on {
			c.color = 1
		}
	}
}

// WithWidth sets the width of the output in columns; 0 or less turns line
// wrapping off. Without it, the width is the terminal's ([term.GetSize]),
// or [DefaultWidth] if the output is not a terminal. See SetWidth for a
// terminal that is resized.
func WithWidth(columns int) Option { return func(c *config) { c.width = max(columns, 0) } }

// WithTerminal says that the output goes to the terminal whose file
// descriptor is fd, for an output that is not the terminal's [*os.File]
// itself: a [bufio.Writer] in front of [os.Stdout], say, as in
//
//	out := bufio.NewWriter(os.Stdout)
//	r := render.New(out, render.WithTerminal(os.Stdout.Fd()))
//
// Without it, the output is a terminal if it has a method Fd() uintptr
// (an *os.File has) for which [term.IsTerminal] holds: a writer that wraps
// a terminal hides it. On a terminal, colour is on (see [WithColor]), the
// width is the terminal's (see [WithWidth]), and no line is ever wider:
// where a word does not fit, it is cut. An fd that is not a terminal's
// counts as no terminal.
func WithTerminal(fd uintptr) Option {
	return func(c *config) { c.fd, c.hasFd = fd, true }
}

// WithInline sets the longest string, in bytes of its text, that is shown
// inline, on the call's line, once it is complete (default [DefaultInline]).
// A string that is longer, or that holds a newline, is long: it is shown
// as it streams, from the moment it is known to be long, in a block below
// the call in the [FunctionCall] style.
func WithInline(n int) Option { return func(c *config) { c.inline = max(n, 0) } }

// Renderer shows the tool calls of a response on an [io.Writer] while their
// arguments stream: each call's header the moment it starts, each short
// argument when it is complete, each long string as it arrives. [Renderer.Sink]
// makes the sink of one call. See the package documentation for what it
// writes.
//
// A Renderer, and the sinks it makes, are for one goroutine: the calls'
// Push and End, Sink, [Renderer.Partial] and [Renderer.Reset] must not run
// concurrently, as toolcall.Response guarantees for the sinks it calls.
// Separate Renderers may run in separate goroutines and share Options.
type Renderer struct {
	w     io.Writer
	cfg   config
	color bool
	limit int // the last column a line may fill, 0 for no limit

	calls map[int64]*call // by index: the calls Partial knows
	free  []*call         // calls forgotten, for reuse
	app   writer          // the application's lines (Write)
	txt   struct {        // the model's text (Text)
		open bool
		c    call // an owner of the output, with label set
		w    writer
		part []byte // a rune cut at the end of a piece
		buf  []byte
	}

	out  []byte  // output not yet written
	cur  style   // the style at the end of out
	col  int     // the column at the end of out
	cols columns // the widths of the runes of the current line
	hard bool    // a terminal: no line may pass the limit (see lineFull)

	spaceEnd int // the column after the line's last space of text, or -1

	// A word held back at a terminal's line end (see spaceAt), if hold
	// >= 0: out[hold:], from column holdCol, of holdW's, in style holdSt
	// where it begins.
	hold, holdCol int
	holdSt        style
	holdW         *writer
	word          []byte // scratch for moveWord

	owner *call  // the call whose text was written last
	hdr   writer // continuation headers
	esc   []byte // scratch for escapes
	num   []byte // scratch for numbers
	err   error  // the first write error
}

// New returns a [Renderer] writing to w.
func New(w io.Writer, opts ...Option) *Renderer {
	cfg := config{style: FunctionCall, width: -1, inline: DefaultInline}
	for _, o := range opts {
		o(&cfg)
	}
	r := &Renderer{w: w, cfg: cfg, calls: make(map[int64]*call), spaceEnd: -1, hold: -1}
	fd, tty := cfg.fd, false
	if cfg.hasFd {
		tty = term.IsTerminal(int(fd))
	} else if f, ok := w.(interface{ Fd() uintptr }); ok {
		fd = f.Fd()
		tty = term.IsTerminal(int(fd))
	}
	r.hard = tty || cfg.hard
	switch cfg.color {
	case 0:
		r.color = tty && os.Getenv("NO_COLOR") == ""
	case 1:
		r.color = true
	}
	width := cfg.width
	if width < 0 {
		width = DefaultWidth
		if tty {
			if cols, _, err := term.GetSize(int(fd)); err == nil && cols > 0 {
				width = cols
			}
		}
	}
	r.SetWidth(width)
	return r
}

// SetWidth sets the width of the output in columns from now on, 0 or less
// for no wrapping: for a terminal that was resized (SIGWINCH), whose new
// size [term.GetSize] gives. The line being written is wrapped at the new
// width from its next character on; lines already written stay as they
// are. Call it from the goroutine that uses the [Renderer].
func (r *Renderer) SetWidth(columns int) {
	// The last column stays empty: a terminal that wraps as soon as it is
	// written would otherwise add an empty line after every full one.
	r.limit = max(columns-1, 0)
}

// Sink returns the sink of the call c, and writes the call's header. It is
// the sink constructor of toolcall.WithSinks: toolcall.WithSinks(r.Sink).
// A call with no name yet gets its header with its first fragment, named
// by the fragment's Call. A call whose index is that of an earlier call
// takes its place for [Renderer.Partial].
func (r *Renderer) Sink(c fragment.Call) sink.Sink {
	cs := r.calls[c.Index]
	if cs == nil || !cs.ended {
		if n := len(r.free); n > 0 {
			cs, r.free[n-1] = r.free[n-1], nil
			r.free = r.free[:n-1]
		} else {
			cs = &call{}
		}
	}
	if r.owner == cs {
		r.owner = nil
	}
	cs.reset(r, c)
	r.calls[c.Index] = cs
	if c.Name != "" {
		cs.header()
	}
	r.flush()
	return cs
}

// Partial returns the arguments of the call at index as far as they are
// complete, for a permission prompt shown while they still stream (RFD
// D26's Phase 4: docs/design.md, "RFD D26's phases"): each complete top-level
// parameter, whole, and a placeholder for the one still streaming. In the
// [FunctionCall] style it is one line:
//
//	fs_create_file(path: "src/main.rs", streaming "content"…)
//
// In the [JSON] style, the pretty-printed JSON of the complete parameters,
// and the placeholder on a line of its own outside JSON syntax, a comment
// that no argument can produce (every key and string is quoted, and a
// newline in one is written \n):
//
//	{
//	  "path": "src/main.rs"
//	  // streaming "content"…
//	}
//
// Removing the comment line leaves the complete parameters as valid JSON.
// Between two parameters, the placeholder is "…" ("// …"): more may come.
// Before the arguments begin, or while a root that is not an object
// streams, the placeholder stands for them all: "fs_create_file(streaming
// arguments…)", "// streaming arguments…". Once they are complete,
// Partial shows them whole, without placeholder. After arguments that
// failed, the placeholder says "incomplete" instead.
//
// Every string is quoted on its line and escaped as on the live output;
// Partial has no colour and no line wrapping. It returns "" for an index
// with no call.
func (r *Renderer) Partial(index int64) string {
	c := r.calls[index]
	if c == nil {
		return ""
	}
	sum := c.p[1].w.buf
	verb, ell, more := "streaming ", "…", "…"
	if c.ended && c.err != nil {
		verb, ell, more = "incomplete ", "", "incomplete"
	}
	var b []byte
	if r.cfg.style == FunctionCall {
		b = appendName(b, c.nameText)
		switch {
		case c.finished:
			b = append(b, sum...)
		case c.rootKind == '{':
			b = append(append(b, '('), sum[c.start:c.committed]...)
			if c.members > 0 {
				b = append(b, ", "...)
			}
			b = append(c.appendPlaceholder(b, Quoted, verb, ell, more), ')')
		default:
			b = append(append(append(append(b, '('), verb...), "arguments"...), ell+")"...)
		}
		return string(b)
	}
	switch {
	case c.finished:
		b = append(b, sum...)
	case c.rootKind == '{':
		b = append(append(b, '{'), sum[c.start:c.committed]...)
		b = append(b, "\n"+indent(1)+"// "...)
		b = append(c.appendPlaceholder(b, JSONQuoted, verb, ell, more), "\n}"...)
	default:
		b = append(append(append(b, "// "...), verb...), "arguments"+ell...)
	}
	return string(b)
}

// appendPlaceholder appends Partial's placeholder: verb and the quoted key
// of the top-level parameter streaming, or more between two parameters.
func (c *call) appendPlaceholder(b []byte, m Mode, verb, ell, more string) []byte {
	if !c.topOpen() {
		return append(b, more...)
	}
	b = append(appendEscaped(append(append(b, verb...), '"'), c.levels[0].key, m), '"')
	return append(b, ell...)
}

// appendName appends a tool's name as the function-call style shows it,
// without colour.
func appendName(b, name []byte) []byte {
	if bareName(name) {
		return append(b, name...)
	}
	return append(appendEscaped(append(b, '"'), name, Quoted), '"')
}

// Write writes p, the application's own text (a permission prompt, say),
// to the output between the calls' output: the line of the call being
// written is ended first, and that call's next output begins with a
// continuation header. Text written to the output other than through the
// [Renderer] would leave it unaware of the line it is on. p is not escaped:
// it must not hold text a model wrote that [AppendEscaped] did not escape.
// Its lines are wrapped as the calls' are: a line longer than the width
// goes on after the wrap mark, so that no part of it, a tool name or an
// error message quoted in it, starts a line at column 0.
func (r *Renderer) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.col > 0 {
		r.lineBreak()
	}
	r.owner = nil
	w := &r.app
	*w = writer{r: r, wrapIn: markIn}
	for rest := p; len(rest) > 0; {
		line, more, nl := bytes.Cut(rest, []byte{'\n'})
		for len(line) > 0 {
			i := 0
			for i < len(line) && line[i] >= 0x20 && line[i] < 0x7f {
				i++
			}
			if i > 0 {
				run(w, line[:i], stPlain)
				line = line[i:]
				continue
			}
			c, n := utf8.DecodeRune(line)
			cols := 0
			if line[0] >= utf8.RuneSelf {
				cols = r.cols.rune(c)
			}
			put(w, line[:n], cols, stPlain)
			line = line[n:]
		}
		if nl {
			r.lineBreak()
		}
		rest = more
	}
	r.flush()
	if r.err != nil {
		return 0, r.err
	}
	return len(p), nil
}

// Text shows text the model wrote outside its tool calls, its prose or
// its reasoning, as it streams: under a line that names it, label (the
// application's text, written as [Renderer.Write] writes it: "text 0", say),
// each of its lines behind the gutter " │ ", escaped as a long string's block
// is ([AppendEscaped]'s Text) and wrapped, so that no line of it starts at
// column 0, where the renderer's headers and the application's own lines
// do. The pieces of one text, given in turn with the same label, go on
// where the last one stopped, whatever their cut; after other output (a
// call's, a Write), the text resumes under "⋯ label continued".
func (r *Renderer) Text(label string, text []byte) {
	if r.err != nil {
		return
	}
	t := &r.txt
	if !t.open || string(t.c.label) != label {
		t.c = call{r: r, label: append(t.c.label[:0], label...)}
		t.open, t.part = true, t.part[:0]
		r.Write([]byte(label + "\n"))
		t.c.headed = true
		t.w = writer{r: r, call: &t.c}
		t.w.setLine(gutter, markIn)
		r.owner = &t.c
	}
	// A rune cut between two pieces waits for its end.
	if len(t.part) > 0 {
		t.buf = append(append(t.buf[:0], t.part...), text...)
		text, t.part = t.buf, t.part[:0]
	}
	if i := cutRune(text); i < len(text) {
		t.part = append(t.part[:0], text[i:]...)
		text = text[:i]
	}
	t.w.arg(text, Text, stPlain)
	r.flush()
}

// cutRune returns the length of b without the start of a rune at its end
// that more bytes may complete.
func cutRune(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// Err returns the first error from writing to the output. After it, the
// [Renderer] writes nothing more; its sinks never fail the calls they serve.
func (r *Renderer) Err() error { return r.err }

// Reset forgets every call ([Renderer.Partial] then knows none), keeping
// their memory for the calls to come: call it between responses, once their
// calls have ended (toolcall.Response.End). Output already written is not
// affected.
func (r *Renderer) Reset() {
	for i, c := range r.calls {
		if c.ended {
			r.free = append(r.free, c)
		}
		delete(r.calls, i)
	}
	r.owner = nil
	r.txt.open = false
}
