package lifecycle_test

import (
	"errors"
	"testing"

	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// words is a toy syntax that uses the lifecycle as a new syntax would: a
// document is "[", then the words "yes" or "no", then "]", nothing between.
type words struct {
	lc     lifecycle.Base
	events []token.Kind
}

type wordsGrammar words

func (g *wordsGrammar) Lex(b []byte, base int64) error {
	l := &g.lc
	for i := 0; i < len(b); {
		switch l.State {
		case lifecycle.Between:
			switch c := b[i]; {
			case c == '[' && l.Depth() == 0:
				if !l.Enter() {
					return l.TooDeep(base+int64(i), "")
				}
				i++
				if err := l.Emit(token.BeginArray, nil, base+int64(i)); err != nil {
					return err
				}
			case c == ']' && l.Depth() == 1:
				l.Leave()
				l.ValueEnded()
				i++
				if err := l.Emit(token.EndArray, nil, base+int64(i)); err != nil {
					return err
				}
			case c == 'y' && l.Depth() == 1:
				l.StartWord("yes")
				i++
			case c == 'n' && l.Depth() == 1:
				l.StartWord("no")
				i++
			default:
				return &token.SyntaxError{Offset: base + int64(i), Err: token.ErrSyntax, Detail: "unexpected byte"}
			}
		case lifecycle.Word:
			var complete bool
			if i, complete = l.MatchWord(b, i); complete {
				l.ValueEnded()
				if err := l.Emit(token.True, nil, base+int64(i)); err != nil {
					return err
				}
			} else if i < len(b) {
				return &token.SyntaxError{Offset: base + int64(i), Err: token.ErrSyntax, Detail: "not a word"}
			}
		case lifecycle.Done:
			var err error
			if i, err = l.Trailing(b, i, base); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *wordsGrammar) End() error                               { return nil }
func (g *wordsGrammar) Pointer(lifecycle.Where) jsontext.Pointer { return "" }

func newWords(opts ...token.Option) *words {
	w := &words{}
	w.lc.Init(token.HandlerFunc(func(e token.Event) error {
		w.events = append(w.events, e.Kind)
		return nil
	}), "words", opts...)
	return w
}

func (w *words) run(chunks ...string) error {
	for _, c := range chunks {
		if err := w.lc.Feed([]byte(c), (*wordsGrammar)(w)); err != nil {
			return err
		}
	}
	return w.lc.Close((*wordsGrammar)(w))
}

// TestLifecycle: a syntax that knows nothing of limits, truncation,
// stickiness or closing gets them from the lifecycle.
func TestLifecycle(t *testing.T) {
	for _, tt := range []struct {
		name   string
		chunks []string
		opts   []token.Option
		cat    error
		off    int64
	}{
		{"valid", []string{"[y", "esn", "o] "}, nil, nil, 0},
		{"empty", nil, nil, token.ErrTruncated, 0},
		{"unclosed", []string{"[yes"}, nil, token.ErrTruncated, 4},
		{"in word", []string{"[ye"}, nil, token.ErrTruncated, 3},
		{"trailing", []string{"[]", " x"}, nil, token.ErrTrailingData, 3},
		{"too large", []string{"[yes", "no]"}, []token.Option{token.WithMaxSize(5)}, token.ErrTooLarge, 5},
		{"bad", []string{"[yo"}, nil, token.ErrSyntax, 2},
	} {
		w := newWords(tt.opts...)
		err := w.run(tt.chunks...)
		if tt.cat == nil {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			if err := w.lc.Feed([]byte(" "), (*wordsGrammar)(w)); !errors.Is(err, token.ErrClosed) {
				t.Errorf("%s: Feed after Close: %v", tt.name, err)
			}
			continue
		}
		var se *token.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.cat) || se.Offset != tt.off || se.Syntax != "words" {
			t.Errorf("%s: %#v, want %v at %d in words", tt.name, err, tt.cat, tt.off)
			continue
		}
		if again := w.lc.Close((*wordsGrammar)(w)); again != err {
			t.Errorf("%s: Close after the error: %v", tt.name, again)
		}
	}
}
