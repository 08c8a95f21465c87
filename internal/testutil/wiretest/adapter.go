package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/argstream/argstream/toolcall"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
	"github.com/google/go-cmp/cmp"
)

// The tests that every wire adapter passes alike (anthropicstream.Read,
// openaistream.ReadChat and ReadResponses), written once over the wire:
// the reads of recordings whole and split, the checks of what a read of
// any bytes may give (mutations, fuzzing), and the allocations of a steady
// stream. Each adapter's package keeps its streams, seeds and Test and
// Fuzz functions, which call these.

// ReadFunc is an adapter's read of a whole stream.
type ReadFunc func(ctx context.Context, body io.Reader, resp *toolcall.Response, opts ...wire.Option) error

// Adapter is a wire adapter under the shared tests. Each adapter's tests
// declare theirs: wiretest cannot import the adapters, whose tests import
// it.
type Adapter struct {
	Name string // its read function's, in messages: "Read", "ReadChat"...
	Read ReadFunc
	// Choices, if not 0, is the number of choices its fuzzing reads
	// (wire.WithChoice): each seed has its choice, and the fuzzer draws
	// one (a byte, modulo Choices) with each stream.
	Choices uint8
}

// Got is what a read of a stream gave: its error, its calls' outcomes, and
// the text and reasoning that the callbacks received, by index.
type Got struct {
	Err            error
	Calls          []CallOutcome
	Text, Thinking map[int64]string
}

// Run reads rd into resp, Reset first, with opts and callbacks that
// gather the text and reasoning, and ends resp.
func (a Adapter) Run(resp *toolcall.Response, rd io.Reader, opts ...wire.Option) Got {
	g := Got{Text: map[int64]string{}, Thinking: map[int64]string{}}
	resp.Reset()
	g.Err = a.Read(context.Background(), rd, resp, append(opts,
		wire.OnText(func(i int64, b []byte) { g.Text[i] += string(b) }),
		wire.OnThinking(func(i int64, b []byte) { g.Thinking[i] += string(b) }))...)
	g.Calls = Outcomes(resp.End())
	return g
}

// CheckEnd fails t unless err is how the read of a recording ends: with
// no error, or, for one cut off before its response's end in an event that
// no blank line ended (truncated: Anthropic's recordings whose
// message_stop has no blank line after it), with an error wrapping both
// sse.ErrTruncated and io.ErrUnexpectedEOF.
func (a Adapter) CheckEnd(t testing.TB, err error, truncated bool) {
	t.Helper()
	if truncated {
		if !errors.Is(err, sse.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%s = %v, want an error wrapping sse.ErrTruncated and io.ErrUnexpectedEOF", a.Name, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s = %v", a.Name, err)
	}
}

// SplitReaders returns readers of stream that return it one byte a read,
// half of what is asked a read, and 1 to 64 bytes a read at random (20
// seeds).
func SplitReaders(stream []byte) []io.Reader {
	readers := []io.Reader{iotest.OneByteReader(bytes.NewReader(stream)), iotest.HalfReader(bytes.NewReader(stream))}
	for seed := range uint64(20) {
		readers = append(readers, RandomReads(bytes.NewReader(stream), seed, 64))
	}
	return readers
}

// CheckSplits reads stream whole, then split into reads of every size
// (SplitReaders), with read, and fails t where a split read gives other
// than the whole one: an error where it had none, or none where it had
// one, other calls, other text or reasoning.
func (a Adapter) CheckSplits(t testing.TB, name string, stream []byte, read func(io.Reader) Got) {
	t.Helper()
	whole := read(bytes.NewReader(stream))
	for i, rd := range SplitReaders(stream) {
		got := read(rd)
		if (got.Err == nil) != (whole.Err == nil) {
			t.Errorf("%s reader %d: %s = %v, whole = %v", name, i, a.Name, got.Err, whole.Err)
		}
		if diff := cmp.Diff(whole.Calls, got.Calls); diff != "" {
			t.Errorf("%s reader %d (-whole +split):\n%s", name, i, diff)
		}
		if !cmp.Equal(whole.Text, got.Text) || !cmp.Equal(whole.Thinking, got.Thinking) {
			t.Errorf("%s reader %d: text %v, thinking %v; whole %v, %v", name, i, got.Text, got.Thinking, whole.Text, whole.Thinking)
		}
	}
}

// ReadChecked reads stream into a fresh Response, with opts and callbacks
// for the text and reasoning, and fails t unless the error is one the
// adapters document (wire.ErrMalformed, a *wire.ProviderError,
// io.ErrUnexpectedEOF, sse.ErrEventTooLarge) and the Results are
// consistent: a call with no error has valid JSON arguments, only such a
// call can be executable, and only with a name; after a refusal
// (wire.ErrMalformed, sse.ErrAmbiguous) none is executable or has
// arguments.
func (a Adapter) ReadChecked(t testing.TB, stream []byte, opts ...wire.Option) ([]toolcall.Result, error) {
	t.Helper()
	resp := toolcall.New()
	ignore := func(int64, []byte) {}
	err := a.Read(context.Background(), bytes.NewReader(stream), resp, append(opts, wire.OnText(ignore), wire.OnThinking(ignore))...)
	var pe *wire.ProviderError
	if err != nil && !errors.Is(err, wire.ErrMalformed) && !errors.As(err, &pe) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, sse.ErrEventTooLarge) {
		t.Fatalf("%s = %v, not an error the adapters document\nstream %q", a.Name, err, stream)
	}
	results := resp.End()
	refused := errors.Is(err, wire.ErrMalformed) || errors.Is(err, sse.ErrAmbiguous)
	for _, r := range results {
		switch {
		case refused && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v executable or with arguments after %v\nstream %q", r.Call, err, stream)
		case r.Err == nil && !json.Valid(r.Arguments):
			t.Fatalf("call %+v: no error but arguments %q are not valid JSON\nstream %q", r.Call, r.Arguments, stream)
		case r.Err != nil && (r.Executable || r.Arguments != nil):
			t.Fatalf("call %+v: error %v but executable %v, arguments %q", r.Call, r.Err, r.Executable, r.Arguments)
		case r.Executable && r.Call.Name == "":
			t.Fatalf("call %+v: executable without a name\nstream %q", r.Call, stream)
		}
	}
	return results, err
}

// CheckMutations reads random mutations of each stream (3,000 in all, 300
// with -short; mutate makes one from a stream, and must not change it)
// with ReadChecked. Most must end with an error or with calls: a mutation
// that gives neither has lost the events of the calls, and t fails if
// those are more than one in tolerance of the others.
func (a Adapter) CheckMutations(t *testing.T, streams [][]byte, mutate func(*rand.Rand, []byte) []byte, tolerance int) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(12, 34))
	var errs, calls, neither int
	for _, stream := range streams {
		for range n / len(streams) {
			res, err := a.ReadChecked(t, mutate(rng, stream))
			switch {
			case err != nil:
				errs++
			case len(res) > 0:
				calls++
			default:
				neither++
			}
		}
	}
	t.Logf("mutations: %d errors, %d with calls and no error, %d with neither", errs, calls, neither)
	if neither > (errs+calls)/tolerance {
		t.Errorf("%d mutations gave neither an error nor a call", neither)
	}
}

// Seed is a seed of Fuzz: a stream, and the choice to read for an adapter
// of Choices.
type Seed struct {
	Stream []byte
	Choice uint8
}

// Streams are seeds of the streams, of choice 0.
func Streams(streams ...[]byte) []Seed {
	seeds := make([]Seed, len(streams))
	for i, s := range streams {
		seeds[i] = Seed{Stream: s}
	}
	return seeds
}

// Fuzz fuzzes ReadChecked from the seeds: a stream, and with Choices the
// choice read.
func (a Adapter) Fuzz(f *testing.F, seeds []Seed) {
	if a.Choices == 0 {
		for _, s := range seeds {
			f.Add(s.Stream)
		}
		f.Fuzz(func(t *testing.T, stream []byte) {
			a.ReadChecked(t, stream)
		})
		return
	}
	for _, s := range seeds {
		f.Add(s.Stream, s.Choice)
	}
	f.Fuzz(func(t *testing.T, stream []byte, choice uint8) {
		a.ReadChecked(t, stream, wire.WithChoice(int64(choice%a.Choices)))
	})
}

// SteadyStream is a stream of two calls whose arguments, text and
// reasoning come in many small deltas, as CheckAllocs reads it.
type SteadyStream struct {
	Name   string                  // in messages, if several streams are read
	Stream func(rounds int) []byte // rounds rounds of Deltas deltas each
	Deltas int
	Large  int // the rounds of the long stream; the short one has 10
	Runs   int // testing.AllocsPerRun's
}

// CheckAllocs checks that the adapter allocates per stream and per call,
// never per delta. It counts the allocations of a read of s's short and
// long streams, whose two calls must come out executable, with callbacks
// for the text and reasoning, and fails t if the difference is more than
// one in 1,000 deltas.
func (a Adapter) CheckAllocs(t *testing.T, s SteadyStream) {
	if testing.Short() {
		t.Skip("long stream")
	}
	const small = 10
	name := ""
	if s.Name != "" {
		name = s.Name + ": "
	}
	x := a.allocsPerStream(t, s.Stream(small), s.Runs)
	y := a.allocsPerStream(t, s.Stream(s.Large), s.Runs)
	perDelta := (y - x) / float64(s.Deltas*(s.Large-small))
	t.Logf("%sallocations per stream: %v with %d deltas, %v with %d; per delta %.6f", name, x, s.Deltas*small, y, s.Deltas*s.Large, perDelta)
	if perDelta > 0.001 {
		t.Errorf("%s%.6f allocations per delta, want 0", name, perDelta)
	}
}

func (a Adapter) allocsPerStream(t *testing.T, stream []byte, runs int) float64 {
	resp := toolcall.New()
	var br bytes.Reader
	var textBytes int
	count := func(_ int64, b []byte) { textBytes += len(b) }
	opts := []wire.Option{wire.OnText(count), wire.OnThinking(count)}
	run := func() {
		resp.Reset()
		br.Reset(stream)
		if err := a.Read(context.Background(), &br, resp, opts...); err != nil {
			t.Fatal(err)
		}
		res := resp.End()
		if len(res) != 2 {
			t.Fatalf("%d calls, want 2", len(res))
		}
		for _, r := range res {
			if !r.Executable {
				t.Fatalf("call %+v", r)
			}
		}
	}
	run() // warm the Response's pools
	return testing.AllocsPerRun(runs, run)
}

// Bench benchmarks reads of stream, without callbacks.
func (a Adapter) Bench(b *testing.B, stream []byte) {
	resp := toolcall.New()
	var br bytes.Reader
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		resp.Reset()
		br.Reset(stream)
		if err := a.Read(context.Background(), &br, resp); err != nil {
			b.Fatal(err)
		}
		resp.End()
	}
}

// cancelReader reads r, and calls cancel at its after-th read.
type cancelReader struct {
	r      io.Reader
	cancel context.CancelFunc
	after  int
}

func (c *cancelReader) Read(p []byte) (int, error) {
	c.after--
	if c.after == 0 {
		c.cancel()
	}
	return c.r.Read(p)
}

// CheckContext checks that a read of stream, a whole response, with a
// context cancelled before it or at its 300th byte (read one a read), ends
// with context.Canceled. It returns the Results of the read cancelled
// midway.
func (a Adapter) CheckContext(t *testing.T, stream []byte) []toolcall.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp := toolcall.New()
	if err := a.Read(ctx, bytes.NewReader(stream), resp); !errors.Is(err, context.Canceled) {
		t.Errorf("%s = %v, want context.Canceled", a.Name, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	resp.Reset()
	rd := &cancelReader{r: iotest.OneByteReader(bytes.NewReader(stream)), cancel: cancel, after: 300}
	if err := a.Read(ctx, rd, resp); !errors.Is(err, context.Canceled) {
		t.Errorf("%s = %v, want context.Canceled mid-stream", a.Name, err)
	}
	return resp.End()
}

// CheckEnded checks that a read of stream into a Response already ended
// is refused with toolcall.ErrEnded; name begins its message.
func (a Adapter) CheckEnded(t *testing.T, name string, stream []byte) {
	t.Helper()
	resp := toolcall.New()
	resp.End()
	if err := a.Read(context.Background(), bytes.NewReader(stream), resp); !errors.Is(err, toolcall.ErrEnded) {
		t.Errorf("%s%s = %v, want toolcall.ErrEnded", name, a.Name, err)
	}
}

// Stepper is an adapter's reader of one event at a time (the gateway's
// step), reused from stream to stream with Reset.
type Stepper interface {
	Event(ev sse.Event) error
	Reset(resp *toolcall.Response)
}

// CheckReusedMemory reads stream again and again with step, one
// sse.Reader and one Response, each reset between streams, and fails t if
// a stream allocates more than max bytes once they have read it a first
// time: a reader kept from response to response costs next to nothing,
// whatever the size of the response. It returns the bytes a stream
// allocated.
func CheckReusedMemory(t *testing.T, name string, stream []byte, step Stepper, max uint64) uint64 {
	t.Helper()
	rd := sse.NewReader(bytes.NewReader(nil))
	return checkAllocated(t, name, stream, max, func(resp *toolcall.Response) {
		step.Reset(resp)
		rd.Reset(bytes.NewReader(stream))
		for rd.Next() {
			if err := step.Event(rd.Event()); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := rd.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp.End()
	})
}

// CheckReusedBody is CheckReusedMemory for a BodyReader, which reads each
// body with its own buffer kept (ReadBody), and checks the calls' results:
// each executable.
func CheckReusedBody(t *testing.T, name string, stream []byte, r BodyReader, max uint64) uint64 {
	t.Helper()
	var br bytes.Reader
	return checkAllocated(t, name, stream, max, func(resp *toolcall.Response) {
		r.Reset(resp)
		br.Reset(stream)
		if err := r.ReadBody(context.Background(), &br); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, res := range resp.End() {
			if !res.Executable {
				t.Fatalf("%s: %+v", name, res)
			}
		}
	})
}

// checkAllocated reads stream with read into one Response, Reset before
// each read (AllocatedPerRun), and fails t if a read allocates more than
// max bytes once warm. It returns the bytes a read allocated.
func checkAllocated(t *testing.T, name string, stream []byte, max uint64, read func(resp *toolcall.Response)) uint64 {
	t.Helper()
	resp := toolcall.New()
	per := AllocatedPerRun(func() {
		resp.Reset()
		read(resp)
	})
	if per > max {
		t.Errorf("%s: a stream of %d bytes allocates %d bytes with a reused reader, want at most %d", name, len(stream), per, max)
	}
	return per
}

// AllocatedPerRun runs read once, then 5 times more, and returns the bytes
// each of those runs allocated.
func AllocatedPerRun(read func()) uint64 {
	read()
	const runs = 5
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		read()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs
}

// BenchInFlight measures the memory of 10,000 responses in flight: for
// each, a Stepper made by newStep, its sse.Reader and its Response, fed
// the first half of stream's bytes, all kept at once. It reports the heap
// each holds ("B/response"), after a collection.
func BenchInFlight(b *testing.B, stream []byte, newStep func(*toolcall.Response) Stepper) {
	half := stream[:len(stream)/2]
	BenchHeld(b, 10000, func() any {
		resp := toolcall.New()
		step, rd := newStep(resp), sse.NewReader(bytes.NewReader(half))
		for rd.Next() {
			if err := step.Event(rd.Event()); err != nil {
				b.Fatal(err)
			}
		}
		return []any{resp, step, rd}
	})
}

// BenchHeld measures the memory of n values made by open and kept at
// once (responses in flight, half read): it reports the heap each holds
// ("B/response"), after a collection.
func BenchHeld(b *testing.B, n int, open func() any) {
	var perResponse float64
	for range b.N {
		b.StopTimer()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		all := make([]any, n)
		for i := range all {
			all[i] = open()
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perResponse = float64(after.HeapInuse-before.HeapInuse) / float64(n)
		runtime.KeepAlive(all)
		b.StartTimer()
	}
	b.ReportMetric(perResponse, "B/response")
}

// EventReader is a wire's reader of one stream's events, kept from stream
// to stream: anthropicstream.Reader, openaistream.ChatReader...
type EventReader interface {
	Reset(resp *toolcall.Response)
	ReadEvents(ctx context.Context, events *sse.Reader) error
}

// CheckReadEvents reads streams in order, twice over, with r and one
// sse.Reader kept and Reset from stream to stream, and checks that each
// read ends as a's Read of the stream alone does: the same calls, and the
// same error or none. Streams that fail, end cut short or hold provider
// errors among them check that Reset forgets all of a stream.
func (a Adapter) CheckReadEvents(t testing.TB, r EventReader, streams [][]byte) {
	t.Helper()
	events := sse.NewReader(nil)
	a.checkReused(t, "ReadEvents", r.Reset, func(stream []byte) error {
		events.Reset(bytes.NewReader(stream))
		return r.ReadEvents(context.Background(), events)
	}, streams)
}

// BodyReader is a wire's reader of one response's body, kept from body to
// body: ollamastream.Reader, bedrockstream.Reader.
type BodyReader interface {
	Reset(resp *toolcall.Response)
	ReadBody(ctx context.Context, body io.Reader) error
}

// CheckReadBody is CheckReadEvents for a BodyReader, which keeps its own
// buffer from body to body.
func (a Adapter) CheckReadBody(t testing.TB, r BodyReader, streams [][]byte) {
	t.Helper()
	a.checkReused(t, "ReadBody", r.Reset, func(stream []byte) error {
		return r.ReadBody(context.Background(), bytes.NewReader(stream))
	}, streams)
}

// checkReused reads streams in order, twice over, each with read, after
// reset with one Response kept, and checks each against a's Read of the
// stream alone.
func (a Adapter) checkReused(t testing.TB, name string, reset func(*toolcall.Response), read func(stream []byte) error, streams [][]byte) {
	t.Helper()
	resp := toolcall.New()
	for round := range 2 {
		for i, stream := range streams {
			want := a.Run(toolcall.New(), bytes.NewReader(stream))
			resp.Reset()
			reset(resp)
			err := read(stream)
			if fmt.Sprint(err) != fmt.Sprint(want.Err) {
				t.Errorf("round %d, stream %d: %s = %v, %s = %v", round, i, name, err, a.Name, want.Err)
			}
			if diff := cmp.Diff(want.Calls, Outcomes(resp.End())); diff != "" {
				t.Errorf("round %d, stream %d: %s's calls against %s's (-%s +%s):\n%s", round, i, name, a.Name, a.Name, name, diff)
			}
		}
	}
}
