package caret_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream/token"
)

// at is where a test input marks the error's offset: the marker is removed
// before the input is fed.
const at = "‸"

// errorCase is a block that fails: its error's category, offset (the
// marker in the block), pointer and line and column, which the test counts
// from the offset.
type errorCase struct {
	block string // with the marker at the error's offset
	cat   error
	ptr   string
}

// place returns the block without its marker, and the offset, line and
// column the marker stands for.
func place(t testing.TB, block string) (string, int64, int, int) {
	t.Helper()
	off := strings.Index(block, at)
	if off < 0 {
		t.Fatalf("%q has no marker", block)
	}
	in := block[:off] + block[off+len(at):]
	line := 1 + strings.Count(in[:off], "\n")
	col := off - (strings.LastIndex(in[:off], "\n") + 1) + 1
	return in, int64(off), line, col
}

var errorCases = []errorCase{
	// The opening fence.
	{at, token.ErrTruncated, ""},
	{at + "x", token.ErrSyntax, ""},
	{"^^" + at + "x^\n^^^", token.ErrSyntax, ""},
	{"^^^" + at + "\nk: v\n^^^", token.ErrSyntax, ""},
	{"^^^" + at + " t\n^^^", token.ErrSyntax, ""},
	{"^^^tool" + at + " \n^^^", token.ErrSyntax, ""},
	{"^^^to" + at + "$l\n^^^", token.ErrSyntax, ""},
	{"^^^to" + at + "\rl\n^^^", token.ErrSyntax, ""},
	{"^^^" + strings.Repeat("n", 128) + at + "n\n^^^", token.ErrSyntax, ""},
	{"^^^tool" + at, token.ErrTruncated, ""},
	{"^^^tool\r" + at, token.ErrTruncated, ""},
	// Lines between parameters.
	{"^^^t\n" + at + " k: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\n" + at + "\tk: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk: v\n" + at + "#x\n^^^", token.ErrSyntax, ""},
	{"^^^t\n" + at + "\rk: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk:" + at + "v\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk:" + at + "\tv\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk:" + at + "\rv\n^^^", token.ErrSyntax, ""},
	{"^^^t\nkey" + at + "\n^^^", token.ErrSyntax, ""},
	{"^^^t\nkey" + at + "\r\n^^^", token.ErrSyntax, ""},
	{"^^^t\nke" + at + "$y: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\nke" + at + "é: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\n" + strings.Repeat("k", 128) + at + "k: v\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk -" + at + "x\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk " + at + " ---\n^^^", token.ErrSyntax, ""}, // two spaces
	{"^^^t\nk ---" + at + " \nx\n--- k\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk ---" + at + "x\nx\n--- k\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk ---" + at + "\rx\nx\n--- k\n^^^", token.ErrSyntax, ""},
	{"^^^t\n" + at + "--- k\n^^^", token.ErrSyntax, ""},
	{"^^^t\n---" + at + "\n^^^", token.ErrSyntax, ""},
	// The closing fence, and after it.
	{"^^^t\nk: v\n^^^" + at + " \n", token.ErrSyntax, ""},
	{"^^^t\nk: v\n^^^" + at + "x\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk: v\n^" + at + "x\n^^^", token.ErrSyntax, ""},
	{"^^^t\nk: v\n^^^" + at + "\rx", token.ErrSyntax, ""},
	{"^^^t\nk: v\n^^^\n" + at + "x", token.ErrTrailingData, ""},
	{"^^^t\nk: v\n^^^\n" + at + "\n", token.ErrTrailingData, ""},
	{"^^^t\nk: v\n^^^\r\n" + at + " ", token.ErrTrailingData, ""},
	{"^^^t\n^^^\n" + at + "^^^t\n", token.ErrTrailingData, ""},
	// Lists.
	{"^^^t\nk: [\nx\n" + at + "^^^\n", token.ErrSyntax, "/k"},
	{"^^^t\nk: [\nx\n" + at + "^^^", token.ErrSyntax, "/k"},
	{"^^^t\nk: [\n" + at + "^^^x\n]\n^^^", token.ErrSyntax, "/k"},
	{"^^^t\nk: [\nx\n]" + at + " \n^^^", token.ErrSyntax, "/k"},
	{"^^^t\nk: [\nx\n]" + at + "\t\n^^^", token.ErrSyntax, "/k"},
	{"^^^t\nk: [\nx\n]\ny" + at + "\n^^^", token.ErrSyntax, ""},
	// Parameters given twice, or confusable.
	{"^^^t\nk: 1\n" + at + "k: 2\n^^^", token.ErrDuplicateKey, "/k"},
	{"^^^t\nk: 1\n" + at + "K: 2\n^^^", token.ErrCaseFoldedKey, "/K"},
	{"^^^t\nk: [\n1\n]\n" + at + "k: [\n2\n]\n^^^", token.ErrDuplicateKey, "/k"},
	{"^^^t\nk: 1\n" + at + "k ---\n2\n--- k\n^^^", token.ErrDuplicateKey, "/k"},
	{"^^^t\nk ---\n1\n--- k\n" + at + "k:\n^^^", token.ErrDuplicateKey, "/k"},
	// Invalid UTF-8.
	{"^^^t\nk: ab" + at + "\xff\n^^^", token.ErrInvalidUTF8, "/k"},
	{"^^^t\nk: ab" + at + "\xc3\n^^^", token.ErrInvalidUTF8, "/k"},
	{"^^^t\nk: [\nok\nab" + at + "\xe2\x82\n]\n^^^", token.ErrInvalidUTF8, "/k/1"},
	{"^^^t\nk ---\nok\nab" + at + "\xed\xa0\x80\n--- k\n^^^", token.ErrInvalidUTF8, "/k"},
	{"^^^t\nk ---\nok\nab" + at + "\xc3\n--- k\n^^^", token.ErrInvalidUTF8, "/k"},
	{"^^^t\nk ---\nok\nab" + at + "\xc3\n\n--- k\n^^^", token.ErrInvalidUTF8, "/k"},
	// Cut short: a block without its closing fence is never complete.
	{"^^^t\n" + at, token.ErrTruncated, ""},
	{"^^^t\nk: v\n" + at, token.ErrTruncated, ""},
	{"^^^t\nk: v\n\n" + at, token.ErrTruncated, ""},
	{"^^^t\nk: v" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: v\r" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: " + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: [" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk:" + at, token.ErrTruncated, ""},
	{"^^^t\nke" + at, token.ErrTruncated, ""},
	{"^^^t\nk --" + at, token.ErrTruncated, ""},
	{"^^^t\nk: [\n" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: [\na\n]" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: [\na\n^^" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: [\na" + at, token.ErrTruncated, "/k/0"},
	{"^^^t\nk ---\n" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk ---\nline\n" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk ---\nline\n--- k" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk ---\nline\n--- k\r" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk ---\ncontent\n^^^\n" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk ---\ncontent\n^^^" + at, token.ErrTruncated, "/k"},
	{"^^^t\nk: v\n^" + at, token.ErrTruncated, ""},
	{"^^^t\nk: v\n^^^\r" + at, token.ErrTruncated, ""},
}

// TestErrors checks each error's category, offset, line, column and
// pointer, for the whole block in one chunk and one byte at a time.
func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		in, off, line, col := place(t, tc.block)
		for _, chunks := range [][]string{{in}, strings.Split(in, "")} {
			_, err := parse(nil, chunks...)
			checkError(t, in, err, tc.cat, off, line, col, tc.ptr)
		}
	}
}

func checkError(t *testing.T, in string, err, cat error, off int64, line, col int, ptr string) {
	t.Helper()
	var se *token.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("%q: got %v, want a *token.SyntaxError", in, err)
		return
	}
	if !errors.Is(err, cat) || se.Offset != off || se.Line != line || se.Column != col || string(se.Pointer) != ptr || se.Syntax != "caret block" {
		t.Errorf("%q:\ngot  %v at %d (%d:%d) %q\nwant %v at %d (%d:%d) %q\n(%v)", in, se.Err, se.Offset, se.Line, se.Column, se.Pointer,
			cat, off, line, col, ptr, err)
	}
}

// TestMaxSize checks token.WithMaxSize: the error is at the limit, located.
func TestMaxSize(t *testing.T) {
	in, off, line, col := place(t, "^^^t\nk ---\nab\ncd"+at+"ef\n--- k\n^^^")
	for _, chunks := range [][]string{{in}, strings.Split(in, "")} {
		s := newStream(untyped, token.WithMaxSize(off))
		_, err := feedAll(s, chunks)
		checkError(t, in, err, token.ErrTooLarge, off, line, col, "/k")
	}
}

// TestOptions checks the options every tokenizer takes: WithMaxDepth (the
// object is depth 1, a list or array depth 2) and WithConfusableKeys.
func TestOptions(t *testing.T) {
	in, off, line, col := place(t, "^^^t\nk: v\nl: "+at+"[\na\n]\n^^^")
	_, err := feedAll(newStream(untyped, token.WithMaxDepth(1)), []string{in})
	checkError(t, in, err, token.ErrTooDeep, off, line, col, "/l")
	if _, err := feedAll(newStream(untyped, token.WithMaxDepth(2)), []string{in}); err != nil {
		t.Errorf("WithMaxDepth(2): %v", err)
	}
	got, err := feedAll(newStream(untyped, token.WithConfusableKeys(true)), []string{"^^^t\nk: 1\nK: 2\n^^^"})
	if want := `{"k":"1","K":"2"}`; err != nil || got != want {
		t.Errorf("WithConfusableKeys(true): %s, %v; want %s", got, err, want)
	}
}

// TestHandlerError checks that an error from the handler stops the
// tokenizer and comes back unchanged, from Feed and then from Close.
func TestHandlerError(t *testing.T) {
	stop := errors.New("stop")
	for _, n := range []int{1, 3, 5} {
		seen := 0
		tok := untyped(token.HandlerFunc(func(e token.Event) error {
			if seen++; seen == n {
				return stop
			}
			return nil
		}))
		err := tok.Feed([]byte("^^^t\nk ---\nline\n--- k\n^^^"))
		if err != stop || tok.Close() != stop || seen != n {
			t.Errorf("stop at event %d: Feed %v, %d events", n, err, seen)
		}
	}
}
