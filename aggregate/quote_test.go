package aggregate

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// wantQuoted is jsontext.AppendQuote's output without the quotes.
func wantQuoted(s []byte) ([]byte, error) {
	q, err := jsontext.AppendQuote(nil, s)
	return q[1 : len(q)-1], err
}

func checkQuoted(t *testing.T, prefix, s []byte) {
	t.Helper()
	want, werr := wantQuoted(s)
	want = append(bytes.Clone(prefix), want...)
	// Spare capacity and none, so that both the in-place and the growing
	// paths run.
	for _, b := range [][]byte{bytes.Clone(prefix), append(make([]byte, 0, len(prefix)+len(s)+40), prefix...)} {
		a := &Aggregator{buf: b}
		err := a.appendQuoted(s)
		got := a.buf
		if !bytes.Equal(got, want) || (err == nil) != (werr == nil) {
			t.Fatalf("appendQuoted(%q, %q) = %q, %v; want %q, %v", prefix, s, got, err, want, werr)
		}
	}
}

var quotePieces = []string{
	"a", "plain text", "0123456789abcdef", " ", "\x7f", "<>&", "'",
	`"`, `\`, "\b", "\f", "\n", "\r", "\t", "\x00", "\x01", "\x1f", "\x1b",
	"é", "😀", "中", "\u2028", "\u2029", "\u0080", "\U0010ffff", "\ufffd",
	"\xff", "\x80", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
}

func TestQuotedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var s []byte
		for range rng.IntN(16) {
			s = append(s, quotePieces[rng.IntN(len(quotePieces))]...)
		}
		prefix := []byte(strings.Repeat("p", rng.IntN(20)))
		checkQuoted(t, prefix, s)
	}
}

// TestQuotedEveryAlignment puts every piece after 0 to 17 plain bytes and
// before a few more.
func TestQuotedEveryAlignment(t *testing.T) {
	for _, p := range quotePieces {
		for k := 0; k <= 17; k++ {
			for tail := 0; tail <= 9; tail++ {
				s := []byte(strings.Repeat("x", k) + p + strings.Repeat("y", tail))
				checkQuoted(t, nil, s)
				checkQuoted(t, []byte(`{"k":"`), s)
				s = []byte(strings.Repeat("x", k) + p + p + "\n" + strings.Repeat("y", tail))
				checkQuoted(t, nil, s)
			}
		}
	}
}

// TestQuotedAllBytes quotes every byte value alone and in a run.
func TestQuotedAllBytes(t *testing.T) {
	for c := range 256 {
		checkQuoted(t, nil, []byte{byte(c)})
		checkQuoted(t, nil, bytes.Repeat([]byte{byte(c)}, 19))
	}
}

func FuzzQuoted(f *testing.F) {
	for _, p := range quotePieces {
		f.Add([]byte("abc" + p + "def"))
	}
	f.Fuzz(func(t *testing.T, s []byte) { checkQuoted(t, []byte("xy"), s) })
}

func BenchmarkAppendQuoted(b *testing.B) {
	line := "    let greeting = \"héllo, wörld 😀\";\n    println!(\"{}\\t{}\", greeting, 42);\n    // a comment with a \\ backslash and \"quotes\"\n    for i in 0..10 { total += i * 3; }\n"
	text := []byte(strings.Repeat(line, 1<<16/len(line)))
	for _, n := range []int{12, 1000, len(text)} {
		b.Run("piece="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			a := &Aggregator{buf: make([]byte, 0, 2*len(text))}
			for b.Loop() {
				a.buf = a.buf[:0]
				for i := 0; i < len(text); {
					end := min(i+n, len(text))
					for end < len(text) && !utf8.RuneStart(text[end]) {
						end++ // pieces never end inside a rune
					}
					if err := a.appendQuoted(text[i:end]); err != nil {
						b.Fatal(err)
					}
					i = end
				}
			}
		})
	}
}
