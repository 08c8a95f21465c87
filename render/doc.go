// Package render shows tool calls on a terminal while their arguments
// stream: a stock sink that writes each call's header the moment the call
// starts, each short argument the moment it is complete, and each long
// string as it arrives, a file's content line by line.
//
//	r := render.New(os.Stdout)
//	resp := toolcall.New(toolcall.WithSinks(r.Sink))
//
// A [Renderer] serves any number of calls, interleaved or not: Sink makes
// each call's sink. When the output goes from one call's text to another
// call's that was already under way, a continuation header says whose
// text follows:
//
//	⋯ fs_create_file [call 0] continued
//
// and a call that starts while others are under way has its index in its
// header: "Calling tool read_file [call 1]".
//
// # Styles
//
// [FunctionCall] (the default) writes the call as a function call. Short
// values are inline, quoted as Go quotes strings; keys are dimmed. A long
// string is announced inline with "…" and shown below, whole, as a block of
// lines behind a gutter, while it streams; what follows it goes on on an
// indented line:
//
//	Calling tool fs_modify_file(path: "lib.rs", patterns: [{old: …
//	  │ fn main() {
//	  │ }
//	  new: …
//	  │ fn main() {
//	  │     run()
//	  │ }
//	  paths: ["src/a.rs"]}], dry_run: false)
//
// [JSON] writes the arguments as pretty-printed JSON, growing as they
// stream, strings escaped as JSON escapes them:
//
//	Calling tool fs_create_file
//	{
//	  "path": "src/main.rs",
//	  "content": "fn main() {\n}\n"
//	}
//
// # Short and long strings
//
// A string is long if its text holds a newline or is longer than the inline
// limit ([WithInline], 64 bytes by default); else it is short. A short string
// is shown when it is complete, with its key, so that it is never cut by
// another call's output. A long string is shown from the moment it is known
// to be long, and then piece by piece as it arrives. Numbers, true, false
// and null are shown when complete. The opening of an array or object, and
// a member's key, are shown with the first value inside them: nothing is
// written before there is a value to show.
//
// Long strings are shown whole, never cut to the terminal's width: a
// model must not be able to hide text past the edge of the screen. In a
// block, a newline is a line break, a tab is spaces to the next tab stop (4
// columns), quotes and backslashes are themselves. A final newline ends the
// block's last line and is not otherwise shown.
//
// # Lines
//
// Lines are wrapped at the output's width ([WithWidth], SetWidth): a wrapped
// line, and a line of a call resumed after another call's output, go on
// after a mark, "  ┆ ". Only the renderer's headers (the function-call
// style's first line among them), the JSON style's outermost brackets, the
// labels of [Text] and the application's own lines (Write) start at column
// 0; other argument text never does, so that it cannot pass for a header
// or a prompt.
//
// On a terminal (an output with an Fd method for which [term.IsTerminal]
// holds, or one named with [WithTerminal]), no line is wider than the width
// less one column: a line breaks at a space where it can, and a word that
// began in the last columns of a line (at most 20, and at most a quarter
// of the line) is held back until it ends, then moved whole to the next
// line if it does not fit; a longer word is cut at the width, since the
// terminal would otherwise wrap it itself and start its rest at column 0.
// An output that is not a terminal (a file, a pipe) is wrapped at
// [DefaultWidth] or WithWidth without ever cutting a word: a line breaks at
// the first space past the width. A resized terminal's new width is given
// with SetWidth (see the command's SIGWINCH handling).
//
// Columns are counted by grapheme cluster, as package [uniseg] measures
// them: an emoji with its skin tone or a ZWJ sequence is two columns, a
// letter with its combining marks one, an East Asian wide character two,
// an ambiguous one (→ — …, box drawing) one. A terminal configured to
// draw the ambiguous characters two columns wide (some CJK setups) wraps
// some lines before the renderer does.
//
// # The model's text
//
// Text shows the text a model writes outside its calls (its prose, its
// reasoning) as it streams, under a label line of the application's, each
// of its lines behind the gutter "  │ ", escaped and wrapped as a long
// string is:
//
//	block 0 text
//	  │ Sure, I will create the file and
//	  ┆ then view it.
//
// # Control and invisible characters
//
// A tool's arguments, and its name, are written by a model, which a prompt
// injection may control. [AppendEscaped] and [Escape] are the escaper the
// renderer uses, for an application that shows a model's text, a tool's
// name or an error message in lines of its own ([Line], Text, [JSONText]).
// No character that could move the cursor, change the terminal's state, reorder or hide text reaches the output raw: the C0
// and C1 controls, DEL, the bidirectional embeddings, overrides and
// isolates (U+202A-U+202E, U+2066-U+2069), the other format characters
// (U+200B-U+200F, U+2060, U+FEFF, the tag characters U+E0000-U+E007F, …),
// the line and paragraph separators, every space but U+0020, the
// default-ignorable and variation-selector code points (the Hangul
// fillers U+115F, U+1160, U+3164, U+FFA0 among them), the Braille pattern
// blank U+2800, private-use, unassigned and noncharacter code points. In keys, values, tool names and
// error messages alike, each is shown escaped, in reverse video when colour
// is on: \x1b, \r, \u202e, \U000e0041 in the FunctionCall style (Go
// escapes; \t and \n too in a quoted value), \u001b, \u202e, \udb40\udc41
// in the JSON style (JSON escapes, so that each string stays a JSON
// string). A byte that is
// not UTF-8 (in a tool name) is shown as \xff, or \ufffd in JSON. A key or
// tool name that is not a plain identifier (letters, digits, '_', '-', '.')
// is shown quoted, so that it cannot pass for the call's own punctuation.
//
// # Colour
//
// Colour (ANSI SGR: bold, dim, reverse, red) is on when the output is a
// terminal and the NO_COLOR environment variable is unset or empty;
// [WithColor] forces it on or off. A terminal behind a writer that hides it
// (a [bufio.Writer] around [os.Stdout]) is named with WithTerminal(fd). Each
// Push's output ends with colour reset, so that text written between pushes
// is not coloured.
//
// # Partial arguments for a permission prompt
//
// Partial returns a call's arguments as far as they are complete, for the
// early permission prompt of RFD D26 (docs/design.md, "RFD D26's phases"),
// shown when a policy decides "ask" while a long argument still streams: the
// complete top-level parameters, whole, and a placeholder for the one still
// streaming:
//
//	fs_create_file(path: "src/main.rs", streaming "content"…)
//
// In the JSON style the placeholder is a comment line, outside JSON syntax,
// so that it cannot be mistaken for a parameter ("#" is a valid key):
//
//	{
//	  "path": "src/main.rs"
//	  // streaming "content"…
//	}
//
// Write the prompt through the Renderer (it is an [io.Writer]): it ends the
// line of the call being shown, and the call's output goes on below the
// prompt after a continuation header (see ExampleRenderer_Partial).
//
// # Chunking
//
// What a Renderer writes for a call depends only on the call's arguments,
// never on how they were cut into chunks: a string is long or short by its
// whole text, and every line break, wrap and tab stop is decided rune by
// rune. Where several calls interleave, the continuation headers depend on
// the interleaving, not on the chunks.
//
// # Errors
//
// Arguments that end in an error (truncated, invalid, declined) end with the
// error on a line of its own, "  ✗ " and its message. A Renderer's sinks
// never return an error: a failing output does not stop the calls; Err
// reports it, and the Renderer writes nothing more.
//
// # Concurrency and memory
//
// A Renderer and its sinks are for one goroutine (toolcall.Response calls
// its sinks from the goroutine that feeds it). Output is written once per
// fragment that produces any (but for a word held back at a terminal's
// line end: see Lines), and at least every 32 KiB. A call keeps a
// short string until it is complete (at most the inline limit), its open
// arrays and objects, the keys of the member it shows and, for Partial,
// the text of its complete parameters, which is the size of the arguments:
// that memory is kept for reuse until Reset, or until another call takes
// its index. Rendering does not allocate per fragment once buffers have
// grown (see BenchmarkRender).
package render
