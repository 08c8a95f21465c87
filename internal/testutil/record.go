package testutil

import (
	"github.com/argstream/argstream/fragment"
)

// Recorder is a sink that keeps a copy of every fragment and how the stream
// ended.
type Recorder struct {
	Fragments []fragment.Fragment
	Offsets   []int64 // Progress.Offset of each fragment
	Ends      int     // End calls
	Err       error   // End's argument
}

// Push records p.
func (r *Recorder) Push(p *fragment.Progress) error {
	r.Fragments = append(r.Fragments, p.Clone())
	r.Offsets = append(r.Offsets, p.Offset)
	return nil
}

// End records err.
func (r *Recorder) End(err error) {
	r.Ends++
	r.Err = err
}

// Merge returns frags with adjacent String pieces of the same value joined:
// the form in which every chunking of the same input gives the same stream.
func Merge(frags []fragment.Fragment) []fragment.Fragment {
	var out []fragment.Fragment
	for _, f := range frags {
		if n := len(out); n > 0 && f.Kind == fragment.String && out[n-1].Kind == fragment.String && out[n-1].Path.Equal(f.Path) {
			out[n-1].Text = append(out[n-1].Text, f.Text...)
			continue
		}
		out = append(out, f.Clone())
	}
	return out
}

// Texts returns each fragment in RFD 043's notation
// ([fragment.Fragment.String]), for readable diffs.
func Texts(frags []fragment.Fragment) []string {
	s := make([]string, len(frags))
	for i := range frags {
		s[i] = frags[i].String()
	}
	return s
}
