package sse

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readEvents reads every event of r with Events, and returns them with the
// error it yielded, checking that the error comes once, last, with the zero
// Event.
func readEvents(t *testing.T, r *Reader) ([]ev, error) {
	t.Helper()
	var out []ev
	var end error
	for e, err := range r.Events() {
		if end != nil {
			t.Fatalf("Events yielded %v after its error %v", e, end)
		}
		if err != nil {
			if e.Type != nil || e.Data != nil || e.ID != nil || e.Raw != nil {
				t.Errorf("Events yielded the error %v with the event %+v, want the zero Event", err, e)
			}
			end = err
			continue
		}
		out = append(out, ev{string(e.Type), string(e.Data), string(e.ID)})
	}
	return out, end
}

// TestEvents: Events yields what the loop of Next, Event and Err reads,
// the same events and then the same error, for the spec's streams and the
// recordings, in any read sizes.
func TestEvents(t *testing.T) {
	inputs := map[string]string{}
	for _, tc := range specCases {
		inputs[tc.name] = tc.in
	}
	for name, data := range recordings(t) {
		inputs[name] = string(data)
	}
	for name, in := range inputs {
		for _, size := range []int{1 << 20, 1, 7} {
			want, werr := readAll(NewReader(&chunkReader{data: []byte(in), sizes: []int{size}}))
			got, gerr := readEvents(t, NewReader(&chunkReader{data: []byte(in), sizes: []int{size}}))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s in reads of %d: events differ from Next's (-want +got):\n%s", name, size, diff)
			}
			if werr != gerr && (werr == nil || gerr == nil || werr.Error() != gerr.Error()) {
				t.Errorf("%s in reads of %d: Events' error %v, Err %v", name, size, gerr, werr)
			}
		}
	}
}

// TestEventsBreak: breaking out of Events stops reading after the event
// last yielded; Next, or another range over Events, goes on from there, and
// a Reader that has ended yields its error again.
func TestEventsBreak(t *testing.T) {
	r := NewReader(&chunkReader{data: []byte("data: a\n\ndata: b\n\ndata: c\n\ndata: d"), sizes: []int{1}})
	for e, err := range r.Events() {
		if err != nil || string(e.Data) != "a" {
			t.Fatalf("first: %q, %v; want a", e.Data, err)
		}
		break
	}
	if !r.Next() || string(r.Event().Data) != "b" {
		t.Fatalf("Next after a break: %q, %v; want b", r.Event().Data, r.Err())
	}
	got, err := readEvents(t, r)
	if want := []ev{{Data: "c"}}; !cmp.Equal(want, got) || !errors.Is(err, ErrTruncated) {
		t.Errorf("the rest: %v, %v; want %v and ErrTruncated", got, err, want)
	}
	if err != r.Err() {
		t.Errorf("Events' error %v, Err %v", err, r.Err())
	}
	got, err = readEvents(t, r)
	if len(got) != 0 || err != r.Err() {
		t.Errorf("an ended Reader: %v, %v; want its error alone, %v", got, err, r.Err())
	}
	// A clean end yields nothing after the events.
	r.Reset(&chunkReader{data: []byte("data: x\n\n"), sizes: []int{3}})
	if got, err := readEvents(t, r); !cmp.Equal([]ev{{Data: "x"}}, got) || err != nil {
		t.Errorf("after Reset: %v, %v; want x and no error", got, err)
	}
}
