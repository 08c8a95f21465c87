package argstream_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/argstream/argstream/token/jsontoken"
)

// orderSink records pushes and End in one log, to check their order.
type orderSink struct{ log []string }

func (o *orderSink) Push(p *fragment.Progress) error {
	o.log = append(o.log, p.Fragment.String())
	return nil
}

func (o *orderSink) End(err error) {
	if err != nil {
		o.log = append(o.log, "End(error)")
	} else {
		o.log = append(o.log, "End(nil)")
	}
}

func TestEndOnceAfterFragments(t *testing.T) {
	for _, tt := range []struct {
		in      string
		wantErr bool
	}{
		{`{"a":[1,2]}`, false},
		{`{"a":[1,2`, true},  // truncated: found at Close
		{`{"a":[1,2}`, true}, // bad bracket: found at Feed
		{`{"a":1} x`, true},  // trailing data
	} {
		for _, chunks := range [][][]byte{{[]byte(tt.in)}, testutil.SplitEvery([]byte(tt.in), 1)} {
			o := &orderSink{}
			s := argstream.New(o)
			err := testutil.Feed(s, chunks)
			if (err != nil) != tt.wantErr {
				t.Fatalf("%q: err = %v", tt.in, err)
			}
			// Close again, and Feed again: End is not repeated, the result is.
			if err2 := s.Close(); err2 != err {
				t.Errorf("%q: second Close = %v, want %v", tt.in, err2, err)
			}
			if err3 := s.Feed([]byte(" ")); tt.wantErr && err3 != err || !tt.wantErr && !errors.Is(err3, argstream.ErrClosed) {
				t.Errorf("%q: Feed after the end = %v", tt.in, err3)
			}
			ends := 0
			for i, l := range o.log {
				if strings.HasPrefix(l, "End") {
					ends++
					if i != len(o.log)-1 {
						t.Errorf("%q: End before fragments: %v", tt.in, o.log)
					}
				}
			}
			if ends != 1 {
				t.Errorf("%q: End called %d times: %v", tt.in, ends, o.log)
			}
		}
	}
}

// TestFragmentsBeforeErrorStay checks that what was delivered before bad
// input stays delivered, unchanged: the fragments of a valid prefix.
func TestFragmentsBeforeErrorStay(t *testing.T) {
	good := `{"path":"a.txt","n":[1,true],"content":"abc`
	rec, err := testutil.Run([][]byte{[]byte(good), []byte(`\q"}`)})
	if !errors.Is(err, token.ErrInvalidEscape) {
		t.Fatalf("err = %v, want invalid escape", err)
	}
	var se *token.SyntaxError
	if !errors.As(err, &se) || se.Offset != int64(len(good)) || se.Pointer != "/content" {
		t.Errorf("error %v, want at byte %d in /content", err, len(good))
	}
	want, _ := testutil.Run([][]byte{[]byte(good)})
	if got, want := testutil.Texts(testutil.Merge(rec.Fragments)), testutil.Texts(testutil.Merge(want.Fragments)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fragments before the error:\n%s\nwant those of the valid prefix:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStopFromSink(t *testing.T) {
	// A sink that has seen "path" needs nothing more.
	pushes := 0
	stopper := sink.PushFunc(func(p *fragment.Progress) error {
		pushes++
		if p.Fragment.Kind == fragment.Done && len(p.Fragment.Path) == 1 && string(p.Fragment.Path[0].Key) == "path" {
			return sink.ErrStop
		}
		return nil
	})
	o := &orderSink{}
	s := argstream.New(sink.Multi(stopper, o))
	err := s.Feed([]byte(`{"path":"x","content":"` + strings.Repeat("y", 1000)))
	if !errors.Is(err, sink.ErrStop) {
		t.Fatalf("Feed = %v, want sink.ErrStop", err)
	}
	if err := s.Feed([]byte(`"}`)); !errors.Is(err, sink.ErrStop) {
		t.Errorf("Feed after stop = %v, want sink.ErrStop again", err)
	}
	if err := s.Close(); !errors.Is(err, sink.ErrStop) {
		t.Errorf("Close after stop = %v", err)
	}
	if pushes != 2 || len(o.log) != 3 || o.log[2] != "End(error)" {
		t.Errorf("pushes = %d, log = %v; want the two fragments of path, then End", pushes, o.log)
	}
}

func TestWithCall(t *testing.T) {
	call := fragment.Call{ID: "toolu_01", Name: "fs_create_file", Index: 2}
	var got []fragment.Call
	s := argstream.New(sink.PushFunc(func(p *fragment.Progress) error {
		got = append(got, *p.Call)
		return nil
	}), argstream.WithCall(call))
	if err := testutil.Feed(s, [][]byte{[]byte(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	if s.Call() != call || len(got) == 0 {
		t.Fatalf("Call() = %+v, fragments %d", s.Call(), len(got))
	}
	for _, c := range got {
		if c != call {
			t.Errorf("fragment carries %+v, want %+v", c, call)
		}
	}
}

func TestWithTokenOptions(t *testing.T) {
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	if _, err := testutil.Run([][]byte{[]byte(deep)}, argstream.WithTokenOptions(token.WithMaxDepth(5))); err != nil {
		t.Errorf("depth 5 with limit 5: %v", err)
	}
	_, err := testutil.Run([][]byte{[]byte(deep)}, argstream.WithTokenOptions(token.WithMaxDepth(4)))
	var se *token.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, token.ErrTooDeep) || se.Offset != 4 {
		t.Errorf("depth 5 with limit 4: %v, want too deep at byte 4", err)
	}
	// The default limit is documented: DefaultMaxDepth.
	at := strings.Repeat("[", token.DefaultMaxDepth) + strings.Repeat("]", token.DefaultMaxDepth)
	if _, err := testutil.Run([][]byte{[]byte(at)}); err != nil {
		t.Errorf("default depth: %v", err)
	}
	if _, err := testutil.Run([][]byte{[]byte("[" + at + "]")}); !errors.Is(err, token.ErrTooDeep) {
		t.Errorf("default depth + 1: %v, want too deep", err)
	}

	big := []byte(`{"content":"` + strings.Repeat("x", 100) + `"}`)
	if _, err := testutil.Run([][]byte{big}, argstream.WithTokenOptions(token.WithMaxSize(int64(len(big))))); err != nil {
		t.Errorf("size at the limit: %v", err)
	}
	s := argstream.New(&testutil.Recorder{}, argstream.WithTokenOptions(token.WithMaxSize(50)))
	err = s.Feed(big[:40])
	if err == nil {
		err = s.Feed(big[40:])
	}
	if !errors.As(err, &se) || !errors.Is(err, token.ErrTooLarge) || se.Offset != 50 {
		t.Errorf("size over the limit: %v, want too large at byte 50", err)
	}
}

func TestEmptyChunks(t *testing.T) {
	s := argstream.New(&testutil.Recorder{})
	for _, c := range []string{"", "", `{"a"`, "", `:1}`, ""} {
		if err := s.Feed([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.Offset() != 7 {
		t.Errorf("Offset = %d, want 7", s.Offset())
	}
}

// TestEmptyInput: no bytes at all are not JSON. A call without arguments
// must be decided by the caller (see README, "Empty arguments").
func TestEmptyInput(t *testing.T) {
	_, err := testutil.Run([][]byte{nil, {}})
	var se *token.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, token.ErrTruncated) || se.Offset != 0 {
		t.Errorf("empty input: %v, want truncated at byte 0", err)
	}
}

func TestWithTokenizer(t *testing.T) {
	made := 0
	newTok := func(h token.Handler, opts ...token.Option) token.Tokenizer {
		made++
		if cfg := token.NewConfig(opts...); cfg.MaxDepth != 3 {
			t.Errorf("tokenizer options: MaxDepth %d, want 3", cfg.MaxDepth)
		}
		return jsontoken.New(h, opts...)
	}
	rec, err := testutil.Run([][]byte{[]byte(`[1]`)}, argstream.WithTokenizer(newTok), argstream.WithTokenOptions(token.WithMaxDepth(3)))
	if err != nil || made != 1 || len(rec.Fragments) == 0 {
		t.Errorf("err %v, tokenizers made %d, fragments %d", err, made, len(rec.Fragments))
	}
}

// TestTrailingMessage: the message about trailing data names the same byte
// whether or not the chunk ends inside the character that starts there.
func TestTrailingMessage(t *testing.T) {
	in := []byte("1 \u00e9")
	_, whole := testutil.Run([][]byte{in})
	_, split := testutil.Run([][]byte{in[:3], in[3:]})
	if whole == nil || split == nil || whole.Error() != split.Error() {
		t.Errorf("whole: %v; split inside the character: %v", whole, split)
	}
}

// TestErrClosedIsTokens: a Stream's Feed after Close returns the tokenizer
// package's ErrClosed, the same value as argstream.ErrClosed, so that
// errors.Is matches with either name.
func TestErrClosedIsTokens(t *testing.T) {
	s := argstream.New(sink.Multi())
	if err := s.Feed([]byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	err := s.Feed([]byte(" "))
	if !errors.Is(err, token.ErrClosed) || !errors.Is(err, argstream.ErrClosed) {
		t.Errorf("Feed after Close: %v, want token.ErrClosed", err)
	}
}
