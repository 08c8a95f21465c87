//go:build go1.27 && goexperiment.jsonv2

package argstream_test

import (
	stdjsontext "encoding/json/jsontext"
	"testing"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/aggregate"
	"github.com/go-json-experiment/json/jsontext"
)

// On Go 1.27 (where goexperiment.jsonv2 is on by default), the module's
// jsontext is the standard library's: a user passes and receives
// encoding/json/jsontext values, with no conversion. This file compiles only
// if the types are identical.
func TestStandardLibraryJSONText(t *testing.T) {
	var std stdjsontext.Value = jsontext.Value(`{}`)
	var ours jsontext.Value = std
	agg := aggregate.New()
	s := argstream.New(agg)
	if err := s.Feed(ours); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var got stdjsontext.Value
	got, err := agg.Value()
	if err != nil || string(got) != "{}" {
		t.Fatalf("Value() = %s, %v", got, err)
	}
	var p stdjsontext.Pointer = jsontext.Pointer("/a")
	_ = p
}
