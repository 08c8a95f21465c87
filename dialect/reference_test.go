package dialect

import (
	"fmt"
	"strings"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// reference frames a whole message the simple way, apart from the
// Reader's streaming code: by lines and strings.Index on the whole text.
// It returns the merged pieces, each call's name, and how many calls the
// text leaves open.
func reference(syntax Syntax, in string) (pieces []piece, names []string, open int) {
	add := func(index int64, s string) {
		if s != "" {
			pieces = append(pieces, piece{Index: index, Data: s})
		}
	}
	text := 0 // where the prose not yet added begins
	for pos := 0; pos < len(in); {
		start, openEnd, name := refOpening(syntax, in, pos)
		if start < 0 {
			break
		}
		end, closed := refClosing(syntax, in, openEnd)
		add(-1, in[text:start])
		add(int64(len(names)), in[start:end])
		names = append(names, name)
		if !closed {
			open++
		}
		pos, text = end, end
	}
	add(-1, in[text:])
	return pieces, names, open
}

// refOpening finds the first call that opens at or after pos: where its
// source starts, where its opening ends, and its name.
func refOpening(syntax Syntax, in string, pos int) (start, end int, name string) {
	switch syntax {
	case Caret:
		for ; pos < len(in); pos = refLineEnd(in, pos) {
			line := in[pos:refLineEnd(in, pos)]
			if !strings.HasSuffix(line, "\n") {
				return -1, 0, ""
			}
			n := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
			if name, ok := strings.CutPrefix(n, "^^^"); ok && refName(name, nameChar) {
				return pos, pos + len(line), name
			}
		}
	case XML:
		for {
			k := strings.Index(in[pos:], xmlOpen)
			if k < 0 {
				return -1, 0, ""
			}
			start := pos + k
			rest := in[start+len(xmlOpen):]
			if gt := strings.IndexByte(rest, '>'); gt >= 0 && refName(rest[:gt], nameChar) {
				return start, start + len(xmlOpen) + gt + 1, rest[:gt]
			}
			pos = start + 1
		}
	default:
		k := strings.Index(in[pos:], qwenOpen)
		if k < 0 {
			return -1, 0, ""
		}
		start := pos + k
		rest := in[start+len(qwenOpen):]
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		if len(rest)-len(trimmed) <= maxSpace {
			if after, ok := strings.CutPrefix(trimmed, qwenFunction); ok {
				if gt := strings.IndexByte(after, '>'); gt >= 0 && refName(after[:gt], dotted) {
					return start, start + len(qwenOpen), after[:gt]
				}
			}
		}
		return start, start + len(qwenOpen), ""
	}
	return -1, 0, ""
}

// refClosing returns where the call whose opening ends at pos ends, and
// whether it is closed there or by the end of the text.
func refClosing(syntax Syntax, in string, pos int) (int, bool) {
	switch syntax {
	case Caret:
		ml := ""
		for ; pos < len(in); pos = refLineEnd(in, pos) {
			line := in[pos:refLineEnd(in, pos)]
			if !strings.HasSuffix(line, "\n") {
				return len(in), ml == "" && line == "^^^"
			}
			n := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
			switch name, isStart := strings.CutSuffix(n, " ---"); {
			case ml != "":
				if n == "--- "+ml {
					ml = ""
				}
			case n == "^^^":
				return pos + len(line), true
			case isStart && refName(name, dotted):
				ml = name
			}
		}
		return len(in), false
	case XML:
		k := strings.Index(in[pos:], xmlClose)
		if k < 0 {
			return len(in), false
		}
		gt := strings.IndexByte(in[pos+k:], '>')
		if gt < 0 {
			return len(in), false
		}
		return pos + k + gt + 1, true
	default:
		k := strings.Index(in[pos:], qwenClose)
		if k < 0 {
			return len(in), false
		}
		return pos + k + len(qwenClose), true
	}
}

// refLineEnd returns where the line at pos ends, after its '\n'.
func refLineEnd(in string, pos int) int {
	if k := strings.IndexByte(in[pos:], '\n'); k >= 0 {
		return pos + k + 1
	}
	return len(in)
}

// refName reports whether s is a name of 1 to MaxName bytes of class.
func refName(s string, class uint8) bool {
	if s == "" || len(s) > MaxName {
		return false
	}
	for i := range len(s) {
		if charClass[s[i]]&class == 0 {
			return false
		}
	}
	return true
}

// againstReference returns what differs between o, the outcome of in,
// and the reference framing of in: the pieces, the names the calls opened
// with, the calls left open.
func againstReference(syntax Syntax, in string, o outcome) string {
	type framing struct {
		Pieces []piece
		Names  []string
		Open   int
	}
	var want, got framing
	want.Pieces, want.Names, want.Open = reference(syntax, in)
	got.Pieces, got.Open = o.Pieces, o.Open
	for _, c := range o.Calls {
		got.Names = append(got.Names, c.OpenName)
	}
	if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		return fmt.Sprintf("against the reference framing (-want +got):\n%s\ninput %q", diff, in)
	}
	return ""
}
