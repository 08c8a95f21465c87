package handrolled

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/argstream/argstream/internal/jsonwire"
	"github.com/argstream/argstream/internal/keyfold"
	"github.com/argstream/argstream/internal/lifecycle"
	"github.com/argstream/argstream/token"
)

// This file is structured in the following way:
//
//   - frame, span, Tokenizer, New, Reset, Offset: the types and their life.
//   - Feed, Close and grammar: the hooks into internal/lifecycle, which owns
//     offsets, limits, the sticky error and truncation at Close.
//   - lex: the state machine, one case per lifecycle state; the common
//     case of each token (a plain string, a whole literal, a number that
//     ends in the chunk) is taken whole without a state change.
//   - number: numbers, through jsonwire.Num.Scan.
//   - endNumber, endLiteral, valueRead, expect, push, closeContainer,
//     endKey, emitPlain: ending tokens and containers.
//
// The errors are in errors.go. Keys are checked by internal/keyfold.

// Tokenizer is the hand-written JSON tokenizer. Its zero value is not ready
// for use: make one with [New]. A Tokenizer may not be used from several
// goroutines at once; separate Tokenizers may run in parallel.
type Tokenizer struct {
	lc    lifecycle.Base // offsets, limits, depth, sticky error, Close
	delim byte           // ',' or ':' read and not yet followed by its token, or 0

	stack jsonwire.Stack // open objects and arrays

	tokOff int64           // offset of the first byte of the token being read
	num    jsonwire.Num    // number grammar state (lifecycle.Number)
	raw    []byte          // the text of a number that spans chunks
	str    jsonwire.String // string decoder (lifecycle.Key, lifecycle.String)

	keyBuf []byte      // the key being read
	keys   keyfold.Set // the keys of the open objects: duplicates, and keys a tool would confuse, and the current ones, for the pointers

	work int64 // units of work done, for the linearity test
}

var _ token.Tokenizer = (*Tokenizer)(nil)

// New returns a [Tokenizer] that reports events to h. It takes the options
// jsontoken.Tokenizer takes ([token.WithMaxDepth], [token.WithMaxSize],
// [token.WithConfusableKeys]), with the same defaults.
func New(h token.Handler, opts ...token.Option) *Tokenizer {
	t := &Tokenizer{}
	t.lc.Init(h, "JSON", opts...)
	// Under AllowConfusableKeys only exact duplicates are rejected.
	t.keys.SetExact(t.lc.Cfg.AllowConfusableKeys)
	return t
}

// NewFunc is [New] as a [token.NewFunc], for argstream.WithTokenizer.
func NewFunc(h token.Handler, opts ...token.Option) token.Tokenizer {
	return New(h, opts...)
}

// Reset makes t ready for a new input, reporting to h, with the same options.
// It keeps t's buffers, so a reused tokenizer does not allocate.
func (t *Tokenizer) Reset(h token.Handler) {
	t.str.Reset()
	t.keys.Reset()
	t.stack.Reset()
	t.lc.Reset(h)
	*t = Tokenizer{lc: t.lc, str: t.str, keys: t.keys, stack: t.stack,
		raw: t.raw[:0], keyBuf: t.keyBuf[:0]}
}

// Offset returns the number of input bytes fed so far.
func (t *Tokenizer) Offset() int64 { return t.lc.Offset() }

// Feed consumes the next chunk of input, which may be empty, and reports the
// events it determines. After an error, Feed and [Tokenizer.Close] return
// that error; after Close, Feed returns [token.ErrClosed].
func (t *Tokenizer) Feed(chunk []byte) error {
	b, base, err := t.lc.Next(chunk)
	if err != nil {
		return err
	}
	return t.lc.Lexed(t.lex(b, base), (*grammar)(t))
}

// Close ends the input: it reports a top-level number that ends the input
// and returns an error if the value is incomplete.
func (t *Tokenizer) Close() error { return t.lc.Close((*grammar)(t)) }

// grammar is the [Tokenizer] as the lifecycle sees it.
type grammar Tokenizer

func (g *grammar) Lex(b []byte, base int64) error { return (*Tokenizer)(g).lex(b, base) }

// End ends a number at the top level, which only the end of input ends.
func (g *grammar) End() error {
	t := (*Tokenizer)(g)
	if !t.num.Complete() {
		return t.lc.Truncated(g, "in number")
	}
	return t.endNumber(t.raw, t.lc.Offset())
}

func (g *grammar) Pointer(at lifecycle.Where) jsontext.Pointer {
	return (*Tokenizer)(g).pointer(int(at))
}

// lex runs the state machine over b, whose first byte is at offset base.
func (t *Tokenizer) lex(b []byte, base int64) error {
	i := 0
	for i < len(b) {
		t.work++
		switch t.lc.State {
		case lifecycle.Between:
			c := b[i]
			if jsonwire.IsSpace(c) {
				for i++; i < len(b) && jsonwire.IsSpace(b[i]); i++ {
				}
				continue
			}
			pos := base + int64(i)
			switch c {
			case ',', ':':
				if want, _ := t.expect(); t.delim != 0 || c != want {
					return t.badDelim(c, pos)
				}
				t.delim = c
				i++
				continue
			case '}', ']':
				if err := t.closeContainer(c, pos); err != nil {
					return err
				}
				i++
				continue
			}
			want, keyPos := t.expect()
			if t.delim != want || keyPos && c != '"' {
				return t.badStart(c, pos, want, keyPos)
			}
			t.delim = 0
			t.tokOff = pos
			switch {
			case c == '"':
				i++
				// Most strings are plain text that ends in the chunk: take
				// them whole. Otherwise jsonwire.String decodes them, the plain
				// start of a key excepted.
				j := i + jsonwire.ScanPlain(b[i:])
				if keyPos {
					t.keyBuf = append(t.keyBuf[:0], b[i:j]...)
					t.work += int64(j - i)
					if j < len(b) && b[j] == '"' {
						i = j + 1
						if err := t.endKey(base + int64(i)); err != nil {
							return err
						}
						continue
					}
					t.str.Reset()
					t.lc.State = lifecycle.Key
					i = j
					continue
				}
				t.stack.Count()
				if err := t.lc.Emit(token.BeginString, nil, pos+1); err != nil {
					return err
				}
				switch {
				case j < len(b) && b[j] == '"':
					if j > i {
						if err := t.emitPlain(b[i:j:j], base+int64(j)); err != nil {
							return err
						}
					}
					i = j + 1
					t.lc.ValueEnded()
					if err := t.lc.Emit(token.EndString, nil, base+int64(i)); err != nil {
						return err
					}
					continue
				case j == len(b) && j > i:
					// What jsonwire.String would do with plain text.
					if err := t.emitPlain(b[i:j:j], base+int64(j)); err != nil {
						return err
					}
					i = j
				}
				t.str.Reset()
				t.lc.State = lifecycle.String
			case c == '{' || c == '[':
				if !t.lc.Enter() {
					return t.lc.TooDeep(pos, t.pointer(+1))
				}
				t.push(c == '{')
				i++
				kind := token.BeginArray
				if c == '{' {
					kind = token.BeginObject
				}
				if err := t.lc.Emit(kind, nil, pos+1); err != nil {
					return err
				}
			case jsonwire.StartsNumber(c):
				t.num = jsonwire.NumStart
				t.lc.State = lifecycle.Number
				t.raw = t.raw[:0]
				var err error
				if i, err = t.number(b, i, base, true); err != nil {
					return err
				}
			case c == 't' || c == 'f' || c == 'n':
				lit := "null"
				switch c {
				case 't':
					lit = "true"
				case 'f':
					lit = "false"
				}
				// The whole literal is usually in the chunk.
				if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
					i += len(lit)
					if err := t.endLiteral(lit, base+int64(i)); err != nil {
						return err
					}
					continue
				}
				t.lc.StartWord(lit)
				i++
			default:
				return t.badValue(c, pos)
			}

		case lifecycle.String:
			var err error
			if i, err = t.lc.JSONString((*grammar)(t), &t.str, b, i, base); err != nil {
				return err
			}

		case lifecycle.Key:
			text, n, closed, lerr := t.str.Next(b[i:], base+int64(i))
			t.keyBuf = append(t.keyBuf, text...)
			t.work += int64(len(text))
			if lerr != nil {
				return lifecycle.WireError(lerr, t.pointer(0))
			}
			i += n
			if closed {
				if err := t.endKey(base + int64(i)); err != nil {
					return err
				}
			}

		case lifecycle.Number:
			var err error
			if i, err = t.number(b, i, base, false); err != nil {
				return err
			}

		case lifecycle.Word:
			var complete bool
			i, complete = t.lc.MatchWord(b, i)
			switch {
			case complete:
				lit, _ := t.lc.Word()
				if err := t.endLiteral(lit, base+int64(i)); err != nil {
					return err
				}
			case i < len(b):
				return t.badLiteral(b[i])
			}

		case lifecycle.Done:
			var err error
			if i, err = t.lc.Trailing(b, i, base); err != nil {
				return err
			}
		}
	}
	return nil
}

// number reads number bytes from b[i:]. The number is complete at the first
// byte that cannot continue it, which is then read as what follows. If
// started, the number began at b[i] in this chunk and is borrowed from b
// when it ends in it too; otherwise its start is in t.raw.
func (t *Tokenizer) number(b []byte, i int, base int64, started bool) (int, error) {
	start := i
	n, num := t.num.Scan(b[i:])
	i += n
	t.num = num
	if i == len(b) {
		t.raw = append(t.raw, b[start:]...)
		t.work += int64(i - start)
		return i, nil
	}
	if !num.Complete() {
		return i, t.badNumber(b[i], base+int64(i))
	}
	text := b[start:i:i]
	if !started {
		t.raw = append(t.raw, text...)
		t.work += int64(len(text))
		text = t.raw
	}
	return i, t.endNumber(text, base+int64(i)+1)
}

func (t *Tokenizer) endNumber(text []byte, determinedAt int64) error {
	t.valueRead()
	return t.lc.Emit(token.Number, text, determinedAt)
}

func (t *Tokenizer) endLiteral(lit string, determinedAt int64) error {
	t.valueRead()
	kind := token.Null
	switch lit {
	case "true":
		kind = token.True
	case "false":
		kind = token.False
	}
	return t.lc.Emit(kind, nil, determinedAt)
}

// valueRead counts a complete scalar in its parent and moves past it.
func (t *Tokenizer) valueRead() {
	t.stack.Count()
	t.lc.ValueEnded()
}

// expect returns the delimiter the grammar requires before the next token,
// and whether that token must be an object key.
func (t *Tokenizer) expect() (want byte, keyPos bool) { return t.stack.Expect() }

func (t *Tokenizer) push(obj bool) {
	t.stack.Push(obj)
	if obj {
		t.keys.Open()
	}
}

// closeContainer reads '}' or ']' at pos.
func (t *Tokenizer) closeContainer(c byte, pos int64) error {
	if t.delim != 0 {
		return t.closerAfterDelim(c, pos)
	}
	obj, n, ok := t.stack.Top()
	if !ok {
		return t.mismatch(c, pos)
	}
	if obj && n&1 == 1 {
		return t.missingColon(c, pos)
	}
	if obj != (c == '}') {
		return t.mismatch(c, pos)
	}
	if obj {
		t.keys.Close()
	}
	t.stack.Pop()
	t.lc.Leave()
	t.lc.ValueEnded()
	kind := token.EndArray
	if c == '}' {
		kind = token.EndObject
	}
	return t.lc.Emit(kind, nil, pos+1)
}

// endKey checks and reports the key just read, which ended at determinedAt.
func (t *Tokenizer) endKey(determinedAt int64) error {
	key := t.keyBuf[:len(t.keyBuf):len(t.keyBuf)]
	if e := t.keys.Check(key, t.tokOff); e != nil {
		// Where jsontoken puts it: at the key, in the member it names.
		return lifecycle.WireError(e, t.pointer(+1).AppendToken(string(key)))
	}
	t.stack.Count()
	t.lc.State = lifecycle.Between
	return t.lc.Emit(token.Key, key, determinedAt)
}

// emitPlain reports string data that is plain input, its own escaped form.
func (t *Tokenizer) emitPlain(data []byte, off int64) error {
	return t.lc.EmitData(data, data, off)
}
