package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/argstream/argstream/internal/testutil/jsonlayout"
)

// The layouts of BenchmarkWire's streams: each event's data written again
// (internal/testutil/jsonlayout) as another encoder writes the same value,
// the events themselves and their framing unchanged.
const (
	LayoutDocumented = "documented"     // as the API writes it (the recordings as recorded)
	LayoutSorted     = "sorted"         // members sorted by name at every level (json.Marshal of a map)
	LayoutShuffled   = "shuffled"       // members in a new random order at every level of every event (an encoder that walks a map)
	LayoutReordered  = "reordered"      // members in an order of their own at every level, the same in every event (a relay that encodes its own structs)
	LayoutSpaced     = "spaced"         // a space after every ':' and ',' (Python's json.dumps)
	LayoutUnknown    = "unknown-member" // an unknown object member first in every event's data (a relay's)
	LayoutPython     = "python-escaped" // spaced, and every character outside ASCII as \u escapes (json.dumps's ensure_ascii)
)

// WireLayouts lists the layouts in the order the benchmarks run them.
var WireLayouts = []string{LayoutDocumented, LayoutSorted, LayoutShuffled, LayoutReordered, LayoutSpaced, LayoutUnknown, LayoutPython}

// UnknownMember is the member LayoutUnknown adds to the data of every
// event: an object with nested objects, arrays and scalars, as a relay
// that annotates events would add (60 bytes).
const UnknownMember = `"x_relay":{"id":"r-81f2","hops":[{"at":17327,"ok":true}],"tag":null}`

// Relayout writes stream, a whole SSE body, again with the data of each of
// its events (a data line holding a JSON object) in layout. Other lines,
// and data that is not a JSON object on one line (data: [DONE]), are kept.
func Relayout(stream []byte, layout string) ([]byte, error) {
	l := jsonlayout.Layout{Rand: rand.New(rand.NewPCG(23, 1))}
	switch layout {
	case LayoutDocumented:
		return stream, nil
	case LayoutSorted:
		l.Order = jsonlayout.Sorted
	case LayoutShuffled:
		l.Order = jsonlayout.Shuffled
	case LayoutReordered:
		l.Order, l.Seed = jsonlayout.Reordered, 1
	case LayoutSpaced:
		l.Spaces = []string{" "}
	case LayoutUnknown:
		l.Unknown = []string{UnknownMember}
	case LayoutPython:
		l.Spaces, l.ASCII = []string{" "}, true
	default:
		return nil, fmt.Errorf("unknown layout %q", layout)
	}
	var out []byte
	for line := range bytes.Lines(stream) {
		body := bytes.TrimRight(line, "\r\n")
		data, ok := bytes.CutPrefix(body, []byte("data:"))
		data = bytes.TrimPrefix(data, []byte(" "))
		if !ok || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			out = append(out, line...)
			continue
		}
		laid, err := jsonlayout.Relayout(data, l)
		if err != nil {
			out = append(out, line...) // not one JSON value on its line: kept
			continue
		}
		out = append(out, "data: "...)
		out = append(out, laid...)
		out = append(out, line[len(body):]...)
	}
	return out, nil
}

// InLayouts returns each of ss in each of layouts, named NAME/layout=L
// after its stream's name.
func InLayouts(ss []WireStream, layouts []string) ([]WireStream, error) {
	var out []WireStream
	for _, s := range ss {
		for _, layout := range layouts {
			parts := make([][]byte, len(s.Parts))
			for i, p := range s.Parts {
				var err error
				if parts[i], err = Relayout(p, layout); err != nil {
					return nil, err
				}
			}
			ls, err := newWireStream(s.Wire, s.Name, parts, s.Files)
			if err != nil {
				return nil, fmt.Errorf("layout %s: %v", layout, err)
			}
			if ls.Deltas != s.Deltas {
				return nil, fmt.Errorf("%s %s in layout %s: %d deltas, %d as written", s.Wire, s.Name, layout, ls.Deltas, s.Deltas)
			}
			ls.Layout = layout
			out = append(out, ls)
		}
	}
	return out, nil
}
