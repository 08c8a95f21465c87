package testutil

import (
	"bytes"
	"fmt"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fragment"
)

// CheckPrefix feeds chunks, which together are a prefix of the valid
// document doc, through the pipeline, and checks that the prefix invents
// nothing: unless the prefix is a document of its own, the stream fails, and
// what it delivered before failing, merged (see [Merge]), is a prefix of doc's
// fragments, the last one possibly a string piece cut short. A number cut at
// "12" of "123" must not be delivered as 12.
func CheckPrefix(doc []byte, chunks [][]byte, opts ...argstream.Option) error {
	whole, err := ReferenceFragments(doc)
	if err != nil {
		return fmt.Errorf("%q is not a document: %v", doc, err)
	}
	prefix := bytes.Join(chunks, nil)
	rec := &Recorder{}
	err = Feed(argstream.New(rec, opts...), chunks)
	if valid := Valid(prefix); valid != (err == nil) {
		return fmt.Errorf("prefix %q: error %v, jsontext says valid = %v", prefix, err, valid)
	}
	if err == nil {
		return nil // a document in its own right, checked as such elsewhere
	}
	got := Merge(rec.Fragments)
	if len(got) > len(whole) {
		return fmt.Errorf("prefix %q of %q: %d fragments, the whole has %d", prefix, doc, len(got), len(whole))
	}
	for i := range got {
		g, w := &got[i], &whole[i]
		if i == len(got)-1 && g.Kind == fragment.String && w.Kind == fragment.String &&
			g.Path.Equal(w.Path) && bytes.HasPrefix(w.Text, g.Text) {
			continue
		}
		if g.String() != w.String() {
			return fmt.Errorf("prefix %q of %q: fragment %d is %v, the whole's is %v", prefix, doc, i, g, w)
		}
	}
	return nil
}
