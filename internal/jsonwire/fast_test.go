package jsonwire

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The tests here check the eight-byte fast paths of String.Next, ScanPlain,
// PlainMask and RuneLen against the byte-at-a-time reference in
// ref_test.go: call by call, on every chunking tried, the same text, bytes
// consumed, closing and error.

// call is what one call of Next returned.
type call struct {
	text   string
	n      int
	closed bool
	err    string
}

func (c call) String() string {
	return fmt.Sprintf("{%q n=%d closed=%v err=%s}", c.text, c.n, c.closed, c.err)
}

func errString(e *Error) string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%d/%v/%s", e.Offset, e.Err, e.Detail)
}

// trace feeds chunks to next (String.Next or refString.Next) as a
// tokenizer does, feeding the rest of a chunk again until the string closes
// or fails, and records one call per chunk: the texts of its calls joined,
// the bytes they consumed, and how the last one ended. (The two may cut a
// chunk's text into calls differently.)
func trace(chunks [][]byte, next func([]byte, int64) ([]byte, int, bool, *Error)) []call {
	var calls []call
	var off int64
	for _, c := range chunks {
		var sum call
		for first := true; first || len(c) > 0; first = false {
			text, n, closed, err := next(c, off)
			sum.text += string(text)
			sum.n += n
			sum.closed, sum.err = closed, errString(err)
			off += int64(n)
			c = c[n:]
			if err != nil || closed {
				return append(calls, sum)
			}
		}
		calls = append(calls, sum)
	}
	return calls
}

// checkChunks compares String with the reference on one chunking of body.
func checkChunks(t *testing.T, body []byte, chunks [][]byte) {
	t.Helper()
	var s String
	var r refString
	got := trace(chunks, verbatimChecked(t, &s))
	want := trace(chunks, r.Next)
	if len(got) != len(want) {
		t.Fatalf("body %q in chunks %q:\n got %v\nwant %v", body, chunks, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("body %q in chunks %q, call %d:\n got %v\nwant %v", body, chunks, i, got[i], want[i])
		}
		if !utf8.ValidString(got[i].text) {
			t.Fatalf("body %q in chunks %q, call %d: text %q is not valid UTF-8", body, chunks, i, got[i].text)
		}
	}
}

// verbatimChecked returns s.Next, checking after each call that what
// s.Escaped returns is the text escaped as jsontext escapes it.
func verbatimChecked(t *testing.T, s *String) func([]byte, int64) ([]byte, int, bool, *Error) {
	return func(src []byte, off int64) ([]byte, int, bool, *Error) {
		text, n, closed, err := s.Next(src, off)
		consumed := src[:n]
		if closed {
			consumed = consumed[:n-1]
		}
		if esc := s.Escaped(consumed, off); esc != nil {
			q, qerr := jsontext.AppendQuote(nil, text)
			if qerr != nil || !bytes.Equal(q[1:len(q)-1], esc) {
				t.Fatalf("Escaped %q of %q, but the text %q is escaped %s (%v)", esc, consumed, text, q, qerr)
			}
		}
		return text, n, closed, err
	}
}

// checkAllSplits compares String with the reference on body whole, byte by
// byte, cut once at every offset, and cut in three at every pair of offsets
// for short bodies.
func checkAllSplits(t *testing.T, body []byte) {
	t.Helper()
	for _, chunks := range splits(body) {
		checkChunks(t, body, chunks)
	}
	if len(body) <= 40 {
		for i := 1; i < len(body); i++ {
			for j := i + 1; j < len(body); j++ {
				checkChunks(t, body, [][]byte{body[:i], body[i:j], body[j:]})
			}
		}
	}
}

// pieces are what the random bodies are made of.
var pieces = []string{
	// plain
	"a", "xyz", "0123456789abcdef", "    ", "{}[]:,", "\x7f", " ",
	// escapes, valid
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0000`, `\u001f`, `\u0041`,
	`\u00e9`, `\u00E9`, `\u07ff`, `\u0800`, `\u2028`, `\uffff`, `\uD83D\uDE00`, `\udbff\udfff`,
	// escapes, invalid
	`\x`, `\u12G4`, `\uD800`, `\uDC00`, `\uD800\u0041`, `\uD800\n`, `\uD800x`, `\ud800\ud800`, `\U0041`, `\`, `\u`,
	// UTF-8, valid
	"é", "ö", "😀", "中文", "\u0080", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff", "\u2028",
	// UTF-8, invalid or unfinished when the body ends there
	"\xff", "\xc3", "\xc3(", "\xe2\x82", "\xe2\x82(", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xf0\x9f\x98", "\x80", "\xf5\x80\x80\x80", "\xe0\x80\x80",
	// control bytes
	"\x00", "\x01", "\n", "\x1f",
	// the end
	`"`,
}

func randomBody(rng *rand.Rand, n int) []byte {
	var b []byte
	for range n {
		p := pieces[rng.IntN(len(pieces))]
		// Valid pieces most of the time, so that bodies get long before an
		// error stops them.
		for rng.IntN(4) != 0 && (strings.ContainsAny(p, "\"\x00\x01\n\x1f") || !utf8.ValidString(p) || p == `\` || p == `\u` || strings.HasPrefix(p, `\x`) || strings.Contains(p, "G") || p == `\U0041`) {
			p = pieces[rng.IntN(len(pieces))]
		}
		b = append(b, p...)
	}
	return b
}

func TestNextMatchesReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 1000
	switch {
	case testing.Short():
		n = 300
	case os.Getenv("ARGSTREAM_LONG") == "1": // testutil.Long, which imports this package
		n = 10000
	}
	for range n {
		body := randomBody(rng, 1+rng.IntN(12))
		checkAllSplits(t, body)
		// Random chunkings of a longer body.
		long := randomBody(rng, 20+rng.IntN(60))
		for range 5 {
			var chunks [][]byte
			for rest := long; len(rest) > 0; {
				k := min(len(rest), rng.IntN(20))
				chunks = append(chunks, rest[:k])
				rest = rest[k:]
			}
			checkChunks(t, long, chunks)
		}
		checkChunks(t, long, [][]byte{long})
	}
}

// TestNextSmallWindows runs the differential tests with the room in the
// decoder's buffer checked every few bytes, so that the checks fall
// everywhere: inside escapes, runes and plain words.
func TestNextSmallWindows(t *testing.T) {
	defer func(w int) { window = w }(window)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, window = range []int{8, 9, 10, 11, 12, 13, 15, 16, 17, 24} {
		for range 200 {
			body := randomBody(rng, 10+rng.IntN(60))
			checkChunks(t, body, [][]byte{body})
			checkChunks(t, body, [][]byte{body[:len(body)/3], body[len(body)/3:]})
		}
		for _, p := range pieces {
			body := []byte(strings.Repeat("p", smallInput+5) + p + `\t` + p + strings.Repeat("q", 20) + p + `"`)
			checkChunks(t, body, [][]byte{body})
		}
	}
}

// TestNextEveryEscapeEverywhere puts every piece after 0 to 17 plain bytes
// (every alignment to the eight-byte words), before plain bytes and the
// closing quote, and cuts the body at every place.
func TestNextEveryEscapeEverywhere(t *testing.T) {
	for _, p := range pieces {
		for k := 0; k <= 17; k++ {
			body := []byte(strings.Repeat("p", k) + p + "tail" + `"`)
			checkAllSplits(t, body)
			// Twice in a row, and with an escape straight after.
			body = []byte(strings.Repeat("p", k) + p + p + `\n` + "tail" + `"`)
			checkAllSplits(t, body)
			// Past smallInput, where Next first looks for a prefix to
			// borrow.
			body = []byte(strings.Repeat("p", smallInput+k) + p + `\t` + p + "tail" + `"`)
			for _, chunks := range splits(body) {
				checkChunks(t, body, chunks)
			}
		}
	}
}

// TestNextInvalidAnywhere puts an invalid byte at every position of a body
// that mixes plain runs, escapes and runes, whole and cut everywhere.
func TestNextInvalidAnywhere(t *testing.T) {
	base := []byte(`plain text \n with é and \u00e9 and 😀, \"quoted\" \uD83D\uDE00 tail end`)
	for _, bad := range []string{"\xff", "\x80", "\xc3", "\x01", "\"", "\\"} {
		for at := 0; at <= len(base); at++ {
			body := append(append(append([]byte{}, base[:at]...), bad...), base[at:]...)
			body = append(body, '"')
			for _, chunks := range splits(body) {
				checkChunks(t, body, chunks)
			}
		}
	}
}

func TestRuneLen(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		r, size := utf8.DecodeRune(b)
		want := 0
		if len(b) > 0 && b[0] >= utf8.RuneSelf && !(r == utf8.RuneError && size == 1) {
			want = size
		}
		if got := RuneLen(b); got != want {
			t.Fatalf("RuneLen(% x) = %d, want %d", b, got, want)
		}
	}
	check(nil)
	// Every sequence of up to three bytes, and every prefix of them.
	for b0 := range 256 {
		check([]byte{byte(b0)})
		for b1 := range 256 {
			check([]byte{byte(b0), byte(b1)})
			if b0 < 0xE0 || b0 >= 0xF5 {
				continue
			}
			for b2 := range 256 {
				check([]byte{byte(b0), byte(b1), byte(b2)})
			}
		}
	}
	// Four-byte sequences: every first and second byte with third and
	// fourth bytes around the continuation range's edges.
	edges := []byte{0x00, 0x3f, 0x7f, 0x80, 0x81, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for b0 := 0xF0; b0 < 0x100; b0++ {
		for b1 := range 256 {
			for _, b2 := range edges {
				for _, b3 := range edges {
					check([]byte{byte(b0), byte(b1), b2, b3})
					check([]byte{byte(b0), byte(b1), b2})
				}
			}
		}
	}
}

func TestScanPlainRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'a', ' ', '~', '"', '\\', 0, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff, 0x5c, 0x22, 0x5b}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = 'x'
			if rng.IntN(8) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		if got, want := ScanPlain(b), refScanPlain(b); got != want {
			t.Fatalf("ScanPlain(%q) = %d, want %d", b, got, want)
		}
		// A slice of a longer array: the tail must not look past its end.
		if len(b) > 0 {
			sub := b[:len(b)-1]
			if got, want := ScanPlain(sub), refScanPlain(sub); got != want {
				t.Fatalf("ScanPlain(%q) = %d, want %d", sub, got, want)
			}
		}
	}
}

// TestNextReusesBuffer checks that a warm decoder does not allocate.
func TestNextReusesBuffer(t *testing.T) {
	body := bytes.Repeat([]byte(`code \"here\"\n\tand é \u00e9 \uD83D\uDE00 more`), 50)
	var s String
	run := func() {
		s.Reset()
		for i := 0; i < len(body); {
			for c := body[i:min(i+16, len(body))]; len(c) > 0; {
				_, n, _, err := s.Next(c, int64(i))
				if err != nil {
					t.Fatal(err)
				}
				c, i = c[n:], i+n
			}
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("%v allocations per string, want 0", n)
	}
}

// FuzzStringReference compares String with the reference on a body cut at
// two fuzzed places.
func FuzzStringReference(f *testing.F) {
	for _, s := range []string{`abc"`, `\u00e9"`, `\ud83d\ude00"`, "é\"", `\x"`, "\xff\"", `a\`, `0123456789\n0123456789"`} {
		f.Add([]byte(s), uint8(3), uint8(9))
	}
	f.Fuzz(func(t *testing.T, body []byte, cut1, cut2 uint8) {
		i, j := int(cut1)%(len(body)+1), int(cut2)%(len(body)+1)
		if i > j {
			i, j = j, i
		}
		checkChunks(t, body, [][]byte{body})
		checkChunks(t, body, [][]byte{body[:i], body[i:j], body[j:]})
		if len(body) <= 64 {
			checkChunks(t, body, splits(body)[1])
		}
	})
}

// benchBody is the body of createFile's content: code with an escape every
// dozen bytes and some non-ASCII text.
func benchBody(b *testing.B) []byte {
	line := `    let greeting = \"héllo, wörld 😀\";\n    println!(\"{}\\t{}\", greeting, 42);\n    // a comment with a \\ backslash and \"quotes\"\n    for i in 0..10 { total += i * 3; }\n`
	return []byte(strings.Repeat(line, 1<<16/len(line)) + `"`)
}

func benchNext(b *testing.B, n int, next func([]byte, int64) ([]byte, int, bool, *Error), reset func()) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		reset()
		for i := 0; i < len(body); {
			end := min(i+n, len(body))
			for c := body[i:end]; len(c) > 0; {
				_, k, _, err := next(c, int64(i))
				if err != nil {
					b.Fatal(err)
				}
				c = c[k:]
				i += k
			}
		}
	}
}

func BenchmarkNext(b *testing.B) {
	for _, n := range []int{16, 1024, 1 << 20} {
		b.Run(fmt.Sprintf("chunk=%d/impl=new", n), func(b *testing.B) {
			var s String
			benchNext(b, n, s.Next, s.Reset)
		})
		b.Run(fmt.Sprintf("chunk=%d/impl=ref", n), func(b *testing.B) {
			var s refString
			benchNext(b, n, s.Next, s.Reset)
		})
	}
}

// BenchmarkNextWorkload decodes the content of the createFile workload
// (bench/testdata): source code, escape-dense and in random order, so that
// the branch predictor cannot learn it as it learns benchBody's one line.
func BenchmarkNextWorkload(b *testing.B) {
	raw, err := os.ReadFile("../../bench/testdata/createFile-100k.json.gz")
	if err != nil {
		b.Skip(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	d, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	i := bytes.Index(d, []byte(`"content":"`)) + len(`"content":"`)
	body := d[i:]
	for _, n := range []int{16, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var s String
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				s.Reset()
				for i := 0; i < len(body); {
					end := min(i+n, len(body))
					for c := body[i:end]; len(c) > 0; {
						_, k, closed, err := s.Next(c, int64(i))
						if err != nil {
							b.Fatal(err)
						}
						c = c[k:]
						i += k
						if closed {
							i = len(body)
							break
						}
					}
				}
			}
		})
	}
}

func TestEscaped(t *testing.T) {
	long := strings.Repeat("plain text ", 10) // past smallInput: the borrowing path
	const none = "<nil>"
	tests := []struct {
		chunks []string
		want   []string // text and Escaped of each call
	}{
		{[]string{`abc"`}, []string{`abc`, `abc`}},
		{[]string{`a\"b\\c\b\f\n\r\t"`}, []string{"a\"b\\c\b\f\n\r\t", `a\"b\\c\b\f\n\r\t`}},
		{[]string{long + `\n` + long + `"`}, []string{long + "\n" + long, long + `\n` + long}},
		{[]string{"é😀" + long + `"`}, []string{"é😀" + long, "é😀" + long}},
		{[]string{`ab`, `cd"`}, []string{`ab`, `ab`, `cd`, `cd`}},
		{[]string{`\n`, `x"`}, []string{"\n", `\n`, `x`, `x`}},
		// Escapes jsontext would not write.
		{[]string{`a\/b"`}, []string{`a/b`, none}},
		{[]string{long + `\/"`}, []string{long + `/`, none}},
		{[]string{`\u00e9"`}, []string{`é`, none}},
		// Split escapes and runes: the text before them, its input
		// escaped; then the text they stand for alone, without; then the
		// rest, with.
		{[]string{`a\`, `nb"`}, []string{`a`, `a`, "\n", none, `b`, `b`}},
		{[]string{`a\u00`, `e9b"`}, []string{`a`, `a`, `é`, none, `b`, `b`}},
		{[]string{`a\ud83d`, `\ude00"`}, []string{`a`, `a`, `😀`, none, ``, ``}},
		{[]string{`a\ud83d\ud`, `e00b"`}, []string{`a`, `a`, `😀`, none, `b`, `b`}},
		{[]string{"a\xc3", "\xa9b\""}, []string{`a`, `a`, `é`, none, `b`, `b`}},
		{[]string{long + "\xc3", "\xa9b\""}, []string{long, long, `é`, none, `b`, `b`}},
		{[]string{`a\/\`, `n"`}, []string{`a/`, none, "\n", none, ``, ``}},
	}
	for _, tt := range tests {
		var s String
		var got []string
		var off int64
		for _, c := range tt.chunks {
			for src := []byte(c); len(src) > 0; {
				text, n, closed, err := s.Next(src, off)
				if err != nil {
					t.Fatalf("%q: Next(%q): %v", tt.chunks, src, err)
				}
				consumed := src[:n]
				if closed {
					consumed = consumed[:n-1]
				}
				got = append(got, string(text))
				if esc := s.Escaped(consumed, off); esc == nil {
					got = append(got, none)
				} else {
					got = append(got, string(esc))
				}
				src, off = src[n:], off+int64(n)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: text and Escaped %q, want %q", tt.chunks, got, tt.want)
		}
	}
}
