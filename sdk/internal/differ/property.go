package differ

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/argstream/argstream/toolcall"
)

// Result is what the property compares of a toolcall.Result: the call's
// identity, its arguments, whether it may run, and its error.
type Result struct {
	Index      int64
	ID, Name   string
	Args       string
	Executable bool
	Err        error
}

// Results summarizes the Results of a Response's End. It is the one place
// that reads fragment.Call's Index type.
func Results(rs []toolcall.Result) []Result {
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i] = Result{
			Index:      int64(r.Call.Index),
			ID:         r.Call.ID,
			Name:       r.Call.Name,
			Args:       string(r.Arguments),
			Executable: r.Executable,
			Err:        r.Err,
		}
	}
	return out
}

func (r Result) String() string {
	s := fmt.Sprintf("#%d %q %q", r.Index, r.ID, r.Name)
	if r.Err != nil {
		s += fmt.Sprintf(" error %q", r.Err.Error())
	} else {
		s += " " + r.Args
	}
	if r.Executable {
		s += " EXECUTABLE"
	}
	return s
}

// SDKCall is one tool call as a reader through an official SDK read it.
type SDKCall struct {
	Index    int64 // the call's index (Anthropic, Chat) or output_index (Responses)
	ID, Name string
	Args     string // as read, not necessarily JSON
	Type     string // the call's type if the SDK reports one ("function", "custom"), else ""
}

func (c SDKCall) String() string {
	s := fmt.Sprintf("#%d %q %q %s", c.Index, c.ID, c.Name, shorten(c.Args, 200))
	if c.Type != "" && c.Type != "function" {
		s += " type " + c.Type
	}
	return s
}

// Reading is what one reader read of a stream: the calls, and the error
// that ended its loop (the stream's, or the accumulator's), if any.
type Reading struct {
	Reader string
	Calls  []SDKCall
	Err    error
	// Absent says the reading's source did not come (a stream cut before
	// response.completed): it is not compared.
	Absent bool
}

func (r Reading) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", r.Reader)
	if r.Absent {
		b.WriteString(" (absent)")
	}
	if r.Err != nil {
		fmt.Fprintf(&b, " error %q;", r.Err.Error())
	}
	if len(r.Calls) == 0 {
		b.WriteString(" no call")
	}
	for _, c := range r.Calls {
		b.WriteString("\n      " + c.String())
	}
	return b.String()
}

// Argstream is what argstream's raw adapter read of a stream: the error
// its Read returned, and the Results of End.
type Argstream struct {
	Err     error
	Results []Result
}

func (a Argstream) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "argstream: Read returned %v", a.Err)
	if len(a.Results) == 0 {
		b.WriteString("; no call")
	}
	for _, r := range a.Results {
		b.WriteString("\n      " + r.String())
	}
	return b.String()
}

// Check is the differential property of invariant 11 on one stream: what
// runs is what was judged, whoever reads the stream. It passes (returns
// nil) iff
//
//   - argstream refused the stream: Read's error wraps malformed and no
//     Result is executable; or
//   - every call that a reading would run (it has a name, is a function's,
//     and its arguments are JSON) argstream reports at its index, and
//     either refuses (not executable) or executes with the same id, name
//     and JSON-equal arguments: two readings that would run different
//     calls at one index can only both pass if argstream refuses that
//     call; and, unless an SDK failed on the stream, every call argstream
//     executes some reading runs.
//
// Its error says which of these failed, and the readings.
func Check(malformed error, a Argstream, readings []Reading) error {
	if errors.Is(a.Err, malformed) && !anyExecutable(a.Results) {
		return nil
	}
	var present []Reading
	for _, r := range readings {
		if !r.Absent {
			present = append(present, r)
		}
	}
	if len(present) == 0 {
		return errors.New("no reading to compare with")
	}
	results := map[int64]Result{}
	for _, r := range a.Results {
		results[r.Index] = r
	}
	// Every call a reading would run, argstream judged: it refuses it, or
	// reads it the same.
	readErr := false
	runs := map[int64]bool{}
	for _, rd := range present {
		readErr = readErr || rd.Err != nil
		for _, c := range rd.Calls {
			if !c.runnable() {
				continue // nothing runs it in this reading
			}
			runs[c.Index] = true
			r, ok := results[c.Index]
			switch {
			case !ok && a.Err != nil:
				continue // argstream failed: it runs no call it does not report
			case !ok:
				return fmt.Errorf("%s runs call #%d (%q %q), which argstream does not report", rd.Reader, c.Index, c.ID, c.Name)
			case !r.Executable:
				continue // refused
			case r.ID != c.ID || r.Name != c.Name:
				return fmt.Errorf("argstream executes call #%d as %q %q, %s runs it as %q %q", r.Index, r.ID, r.Name, rd.Reader, c.ID, c.Name)
			case !JSONEqual(c.Args, r.Args):
				return fmt.Errorf("argstream executes call #%d with arguments %s, %s runs it with %s", r.Index, shorten(r.Args, 200), rd.Reader, shorten(c.Args, 200))
			}
		}
	}
	// And what argstream executes, a reading runs, unless an SDK failed
	// on the stream (then its client runs nothing).
	for _, r := range a.Results {
		if r.Executable && !runs[r.Index] && !readErr && a.Err == nil {
			return fmt.Errorf("argstream executes call #%d (%q %q), which no reading runs", r.Index, r.ID, r.Name)
		}
	}
	return nil
}

// runnable reports whether a client would run c: it has a name, is a
// function's, and its arguments are JSON.
func (c SDKCall) runnable() bool {
	if c.Name == "" || c.Type != "" && c.Type != "function" {
		return false
	}
	var v any
	return json.Unmarshal([]byte(c.Args), &v) == nil
}

func anyExecutable(rs []Result) bool {
	for _, r := range rs {
		if r.Executable {
			return true
		}
	}
	return false
}

// JSONEqual says whether a and b are the same JSON value: the same
// compact text, or values that decode equal (members in another order).
// Text that is not JSON equals nothing.
func JSONEqual(a, b string) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, []byte(a)) != nil || json.Compact(&cb, []byte(b)) != nil {
		return false
	}
	if bytes.Equal(ca.Bytes(), cb.Bytes()) {
		return true
	}
	va, erra := decode(a)
	vb, errb := decode(b)
	return erra == nil && errb == nil && reflect.DeepEqual(va, vb)
}

func decode(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// shorten quotes s, eliding its middle past max bytes.
func shorten(s string, max int) string {
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	head, tail := s[:max*2/3], s[len(s)-max/3:]
	return fmt.Sprintf("%q…(%d bytes)…%q", head, len(s)-len(head)-len(tail), tail)
}
