package differ

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestParseKeepsMembers: repeated names, their order and escapes in names
// survive Parse and JSON.
func TestParseKeepsMembers(t *testing.T) {
	in := `{"a":1,"b":{"c":[true,null,"x\ny"]},"a":"2"}`
	n, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := n.JSON(Style{}); got != in {
		t.Errorf("JSON() = %s, want %s", got, in)
	}
	n.Members[0].RawName = EscapeAll("a")
	if got := n.JSON(Style{}); !strings.HasPrefix(got, `{"\u0061":1,`) {
		t.Errorf("escaped name: %s", got)
	}
	if got := n.JSON(Style{Space: true}); got != `{"\u0061": 1, "b": {"c": [true, null, "x\ny"]}, "a": "2"}` {
		t.Errorf("spaced: %s", got)
	}
}

// TestFoldVariant: every variant differs from the name and folds equal to
// it as encoding/json v1 matches names (bytes.EqualFold).
func TestFoldVariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 200 {
		for _, name := range []string{"partial_json", "index", "content_block", "tool_calls", "delta"} {
			v, ok := FoldVariant(r, name)
			if !ok || v == name || !bytes.EqualFold([]byte(v), []byte(name)) {
				t.Fatalf("FoldVariant(%q) = %q, %v", name, v, ok)
			}
			seen[v] = true
		}
	}
	for _, want := range []string{"INDEX", "content_bloc\u212a", "partial_j\u017fon"} {
		if !seen[want] {
			t.Errorf("no variant %q", want)
		}
	}
}

// TestParseSSE: a recording's events, comments and [DONE] survive
// ParseSSE and Bytes.
func TestParseSSE(t *testing.T) {
	in := ": interaction 1\nevent: a\ndata: {\"type\":\"a\"}\n\ndata: [DONE]\n\n"
	s, err := ParseSSE([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Bytes()); got != in {
		t.Errorf("Bytes() = %q, want %q", got, in)
	}
	if s.Events[0].Type() != "a" || s.Events[1].RawData != "[DONE]" {
		t.Errorf("events: %+v", s.Events)
	}
}

// TestCheck: the verdicts of the property.
func TestCheck(t *testing.T) {
	malformed := errors.New("malformed")
	call := SDKCall{Index: 0, ID: "t", Name: "f", Args: `{"a": 1}`}
	exec := Result{Index: 0, ID: "t", Name: "f", Args: `{"a":1}`, Executable: true}
	sdk := func(calls ...SDKCall) Reading { return Reading{Reader: "sdk", Calls: calls} }
	for _, c := range []struct {
		name     string
		a        Argstream
		readings []Reading
		pass     bool
	}{
		{"same calls", Argstream{Results: []Result{exec}}, []Reading{sdk(call)}, true},
		{"refused", Argstream{Err: malformed, Results: []Result{{Index: 0}}}, []Reading{sdk()}, true},
		{"malformed, executable, same calls", Argstream{Err: malformed, Results: []Result{exec}}, []Reading{sdk(call)}, true},
		{"other arguments", Argstream{Results: []Result{exec}}, []Reading{sdk(SDKCall{ID: "t", Name: "f", Args: `{"a":2}`})}, false},
		{"other name", Argstream{Results: []Result{exec}}, []Reading{sdk(SDKCall{ID: "t", Name: "g", Args: `{"a":1}`})}, false},
		{"a call the SDK does not read", Argstream{Results: []Result{exec}}, []Reading{sdk()}, false},
		{"a call argstream does not report", Argstream{}, []Reading{sdk(call)}, false},
		{"a call argstream does not report, argstream failed", Argstream{Err: errors.New("cut")}, []Reading{sdk(call)}, true},
		{"not executable", Argstream{Results: []Result{{Index: 0, ID: "t", Name: "f"}}}, []Reading{sdk(call)}, true},
		{"readings differ", Argstream{Results: []Result{exec}}, []Reading{sdk(call), {Reader: "other", Calls: []SDKCall{{ID: "t", Name: "f", Args: "{}"}}}}, false},
		{"readings differ, refused", Argstream{Err: malformed}, []Reading{sdk(call), {Reader: "other"}}, true},
		{"an absent reading", Argstream{Results: []Result{exec}}, []Reading{sdk(call), {Reader: "other", Absent: true}}, true},
		{"a custom call", Argstream{Results: []Result{exec}}, []Reading{sdk(SDKCall{ID: "t", Name: "f", Args: `{"a":1}`, Type: "custom"})}, false},
	} {
		err := Check(malformed, c.a, c.readings)
		if (err == nil) != c.pass {
			t.Errorf("%s: Check = %v, want pass %v", c.name, err, c.pass)
		}
	}
}
