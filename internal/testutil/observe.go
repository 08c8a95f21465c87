package testutil

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
	"github.com/argstream/argstream/token"
	"github.com/go-json-experiment/json/jsontext"
)

// Outcome is everything a stream delivers, in a form that compares across
// chunkings: every chunking of the same input must give the same Outcome.
type Outcome struct {
	Fragments []string // merged (see Merge), as Texts writes them
	Value     string   // the aggregate, if accepted
	Values    []string // every OnValue completion: "pointer=value"
	Err       string   // category and message (with offset and pointer), if rejected
	ErrOffset int64    // the error's offset, if rejected
	ErrPtr    string   // the error's JSON pointer, if rejected
}

// Observe feeds chunks through the full pipeline (fragments to a [Recorder]
// and an Aggregator) and returns the [Outcome]. It returns an error when an
// invariant that holds for any input and any chunking breaks: End not called
// exactly once with the stream's error, fragment offsets going back or past
// the input, an error that is not a [*token.SyntaxError] or points outside
// the input, an accepted stream without a complete value.
func Observe(chunks [][]byte, opts ...argstream.Option) (Outcome, error) {
	var out Outcome
	rec := &Recorder{}
	agg := aggregate.New(aggregate.OnValue(func(p fragment.Path, v jsontext.Value) error {
		out.Values = append(out.Values, string(p.Pointer())+"="+string(v))
		return nil
	}))
	err := Feed(argstream.New(sink.Multi(rec, agg), opts...), chunks)
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	if rec.Ends != 1 || rec.Err != err {
		return out, fmt.Errorf("End called %d times with %v; stream returned %v", rec.Ends, rec.Err, err)
	}
	for i, off := range rec.Offsets {
		if off < 0 || off > int64(total) || i > 0 && off < rec.Offsets[i-1] {
			return out, fmt.Errorf("fragment %d at offset %d after %v (input %d bytes)", i, off, rec.Offsets[:i], total)
		}
	}
	for i, f := range rec.Fragments {
		if f.Escaped == nil {
			continue
		}
		if f.Kind != fragment.String {
			return out, fmt.Errorf("fragment %d, %v: Escaped set", i, f.Kind)
		}
		if err := CheckEscaped(f.Text, f.Escaped); err != nil {
			return out, fmt.Errorf("fragment %d: %v", i, err)
		}
	}
	out.Fragments = Texts(Merge(rec.Fragments))
	if err != nil {
		var se *token.SyntaxError
		if !errors.As(err, &se) {
			return out, fmt.Errorf("error %v (%T) is not a *token.SyntaxError", err, err)
		}
		if se.Offset < 0 || se.Offset > int64(total) || se.Detail == "" {
			return out, fmt.Errorf("error %v: offset outside the %d input bytes or no detail", err, total)
		}
		// The whole message, not only the category and the place: it too
		// must not depend on the chunking.
		out.Err = fmt.Sprintf("[%v] %v", se.Err, se)
		out.ErrOffset, out.ErrPtr = se.Offset, string(se.Pointer)
		return out, nil
	}
	v, verr := agg.Value()
	if verr != nil {
		return out, fmt.Errorf("accepted, but the aggregator says %v", verr)
	}
	out.Value = string(v)
	return out, nil
}

// CheckWhole compares an accepted [Outcome] of data with a whole-document
// jsontext parse: the value is Canonical(data) and the fragments are
// ReferenceFragments(data). A rejected Outcome must be of input that [Valid]
// rejects too; if jsontext alone accepts it, for the key (category, offset
// and pointer) that [ConfusableKey] finds.
func CheckWhole(data []byte, o Outcome) error {
	if accepted, valid := o.Err == "", Valid(data); accepted != valid {
		return fmt.Errorf("%q: accepted = %v (%s), the reference says %v", data, accepted, o.Err, valid)
	}
	if o.Err != "" {
		if k := ConfusableKey(data); k != nil && jsontext.Value(data).IsValid() &&
			(!strings.HasPrefix(o.Err, "["+k.Cat.Error()+"]") || o.ErrOffset != k.Offset || o.ErrPtr != string(k.Pointer)) {
			return fmt.Errorf("%q: %s at %d (%q), the reference says %v at %d (%q)", data, o.Err, o.ErrOffset, o.ErrPtr, k.Cat, k.Offset, k.Pointer)
		}
		return nil
	}
	want, err := Canonical(data)
	if err != nil {
		return err
	}
	if o.Value != string(want) {
		return fmt.Errorf("%q: aggregate %s, want %s", data, o.Value, want)
	}
	ref, err := ReferenceFragments(data)
	if err != nil {
		return err
	}
	if got, want := o.Fragments, Texts(ref); !slices.Equal(got, want) {
		return fmt.Errorf("%q: fragments\n%q\nwant\n%q", data, got, want)
	}
	if n := len(o.Values); n == 0 || o.Values[n-1] != "="+o.Value {
		return fmt.Errorf("%q: last OnValue %v is not the whole value", data, o.Values)
	}
	return nil
}
