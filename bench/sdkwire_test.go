package bench

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSDKWireContenders checks that on every stream of BenchmarkSDKWire
// (the synthetic ones at 1k, and at the sizes of -wiresizes without
// -short, and the recordings) the official SDK gives the calls argstream
// gives: the same names, the same arguments once decoded, in the same
// order; that each part of a stream has a call; and that each stream has
// the argument events it counts.
func TestSDKWireContenders(t *testing.T) {
	sizes := []string{"1k"}
	if !testing.Short() {
		for _, size := range strings.Split(*wireSizes, ",") {
			if !slices.Contains(sizes, size) {
				sizes = append(sizes, size)
			}
		}
	}
	for _, wire := range SDKWires {
		ss, err := LoadSDKWireStreams(wire, "testdata", sizes)
		if err != nil {
			t.Fatal(err)
		}
		cs := SDKWireContenders(wire)
		for _, s := range ss {
			t.Run(wire+"/"+s.Name, func(t *testing.T) {
				if s.Deltas == 0 {
					t.Fatal("no argument event counted")
				}
				for i, part := range s.Parts {
					// BenchmarkSDKWire reads each part on its own and wants a call of each.
					if calls, _ := cs[0].New().Read(part); len(calls) == 0 {
						t.Errorf("part %d: no tool call", i)
					}
				}
				var want []outcome
				for i, c := range cs {
					calls, err := ReadAll(c.New(), s)
					if err != nil {
						t.Fatalf("%s: %v", c.Name, err)
					}
					got := normalized(t, outcomes(t, calls))
					if len(got) == 0 {
						t.Fatalf("%s: no call", c.Name)
					}
					if i == 0 {
						want = got
						continue
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s differs from %s (-%s +%s):\n%s", c.Name, cs[0].Name, cs[0].Name, c.Name, diff)
					}
				}
			})
		}
	}
}

// normalized writes each outcome's arguments as JSON and decodes them
// again, so that a map of the SDK's own types (ollama's ordered map, an
// SDK's integers) compares with encoding/json's.
func normalized(t *testing.T, os []outcome) []outcome {
	t.Helper()
	for i, o := range os {
		if o.Args == nil {
			continue
		}
		b, err := json.Marshal(o.Args)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		os[i].Args = v
	}
	return os
}

// TestSDKWireStreamDeltas checks the synthetic Bedrock stream against the
// wire's own reader: its argument events are those of CutDeltas, and the
// count of countSDKWireDeltas on the bytes agrees.
func TestSDKWireStreamDeltas(t *testing.T) {
	args := []byte(`{"path":"src/a.go","content":"package a\n// é ✓ 😀\n"}`)
	for _, wire := range SDKWires {
		data, n, err := SDKWireStream(wire, "fs_create_file", args)
		if err != nil {
			t.Fatal(err)
		}
		counted, err := countSDKWireDeltas(wire, data)
		if err != nil {
			t.Fatalf("%s: %v", wire, err)
		}
		want := 1
		if wire == WireBedrock || wire == WireCohere {
			want = len(CutDeltas(args))
		}
		if n != want || counted != want {
			t.Errorf("%s: %d argument events, %d counted; want %d", wire, n, counted, want)
		}
	}
	if _, _, err := SDKWireStream(WireGemini, "x", []byte(`[1]`)); err == nil {
		t.Error("arguments that are no object: no error")
	}
}
