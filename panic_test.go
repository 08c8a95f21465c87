package argstream_test

import (
	"errors"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/sink"
	"github.com/google/go-cmp/cmp"
)

// panicky records like a Recorder, but panics on its panicAt-th fragment
// (counting from 1), once, or in End if panicInEnd.
type panicky struct {
	testutil.Recorder
	pushes     int
	panicAt    int
	panicInEnd bool
}

var errBoom = errors.New("boom")

func (p *panicky) Push(f *fragment.Progress) error {
	p.pushes++
	if p.pushes == p.panicAt {
		panic(errBoom)
	}
	return p.Recorder.Push(f)
}

func (p *panicky) End(err error) {
	p.Recorder.End(err)
	if p.panicInEnd {
		p.panicInEnd = false
		panic(errBoom)
	}
}

// recovered runs f and returns what it panicked with, or nil.
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

const panicDoc = `{"path":"src/main.rs","content":"fn main() {}\n","n":[1,2,3]}`

// TestPanickingSink: a sink panics on its third fragment, in the middle of a
// chunk, and the caller recovers. The panic reaches the caller as it was;
// after it, the Stream is failed: Feed and Close return ErrPanicked, and the
// sink hears nothing more, End included.
func TestPanickingSink(t *testing.T) {
	sk := &panicky{panicAt: 3}
	s := argstream.New(sk)
	chunks := testutil.SplitEvery([]byte(panicDoc), 24)
	var v any
	for _, c := range chunks {
		if v = recovered(func() { s.Feed(c) }); v != nil {
			break
		}
	}
	if v != errBoom {
		t.Fatalf("the caller recovered %v, want the sink's own panic value", v)
	}
	for i := range 2 {
		if err := s.Feed([]byte(`}`)); !errors.Is(err, argstream.ErrPanicked) {
			t.Errorf("Feed %d after the panic = %v, want ErrPanicked", i, err)
		}
		if err := s.Close(); !errors.Is(err, argstream.ErrPanicked) {
			t.Errorf("Close %d after the panic = %v, want ErrPanicked", i, err)
		}
	}
	if sk.pushes != 3 || sk.Ends != 0 {
		t.Errorf("after the panic the sink had %d pushes and %d Ends, want 3 and 0", sk.pushes, sk.Ends)
	}
}

// TestPanicInEnd: a panic in End, after input that was complete and valid,
// fails the Stream too: Close does not then report success.
func TestPanicInEnd(t *testing.T) {
	sk := &panicky{panicInEnd: true}
	s := argstream.New(sk)
	if err := s.Feed([]byte(panicDoc)); err != nil {
		t.Fatal(err)
	}
	if v := recovered(func() { s.Close() }); v != errBoom {
		t.Fatalf("the caller recovered %v, want the sink's own panic value", v)
	}
	if err := s.Close(); !errors.Is(err, argstream.ErrPanicked) {
		t.Errorf("Close after a panic in End = %v, want ErrPanicked", err)
	}
	if err := s.Feed(nil); !errors.Is(err, argstream.ErrPanicked) {
		t.Errorf("Feed after a panic in End = %v, want ErrPanicked", err)
	}
	if sk.Ends != 1 {
		t.Errorf("End called %d times, want 1", sk.Ends)
	}
}

// TestReentrantCallFails: a sink that feeds its own Stream from Push gets
// ErrPanicked, and the Stream is failed.
func TestReentrantCallFails(t *testing.T) {
	var s *argstream.Stream
	var inner error
	s = argstream.New(sink.PushFunc(func(*fragment.Progress) error {
		if inner == nil {
			inner = s.Feed([]byte(`1`))
		}
		return nil
	}))
	s.Feed([]byte(`[true, false]`))
	if !errors.Is(inner, argstream.ErrPanicked) {
		t.Errorf("Feed from Push = %v, want ErrPanicked", inner)
	}
	if err := s.Close(); !errors.Is(err, argstream.ErrPanicked) {
		t.Errorf("Close = %v, want ErrPanicked", err)
	}
}

// TestResetAfterPanic: Reset makes a Stream failed by a panic work again,
// exactly as a new one.
func TestResetAfterPanic(t *testing.T) {
	for _, size := range []int{1, 7, len(panicDoc)} {
		chunks := testutil.SplitEvery([]byte(panicDoc), size)
		sk := &panicky{panicAt: 3}
		s := argstream.New(sk)
		var v any
		for _, c := range chunks {
			if v = recovered(func() { s.Feed(c) }); v != nil {
				break
			}
		}
		if v == nil {
			t.Fatalf("chunks of %d: no panic", size)
		}
		call := fragment.Call{ID: "after", Name: "write"}
		s.Reset(call)
		sk.Recorder = testutil.Recorder{}
		if err := testutil.Feed(s, chunks); err != nil {
			t.Fatalf("chunks of %d: after Reset: %v", size, err)
		}
		fresh := &testutil.Recorder{}
		if err := testutil.Feed(argstream.New(fresh, argstream.WithCall(call)), chunks); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fresh, &sk.Recorder); diff != "" {
			t.Errorf("chunks of %d: after Reset (-fresh +reset):\n%s", size, diff)
		}
		if s.Call() != call || s.Offset() != int64(len(panicDoc)) {
			t.Errorf("chunks of %d: after Reset: call %v, offset %d", size, s.Call(), s.Offset())
		}
	}
}
