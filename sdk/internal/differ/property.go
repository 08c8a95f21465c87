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

// Check is the differential property of invariant 11 on one stream. It
// passes (returns nil) iff
//
//   - argstream refused the stream: Read's error wraps malformed and no
//     Result is executable; or
//   - the present readings agree with each other (else two conforming
//     readers differ, and argstream must refuse), every executable Result
//     of argstream has a call of the readings with the same index, id and
//     name, of type function if typed, and JSON-equal arguments, and, if
//     neither argstream nor any reading reported an error, every call of
//     the readings has a Result of argstream at its index with the same id
//     and name (executable with equal arguments, by the above, or not
//     executable).
//
// Its error says which of these failed, and both readings.
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
	for _, r := range present[1:] {
		if d := diffCalls(present[0].Calls, r.Calls); d != "" {
			return fmt.Errorf("the readings %s and %s differ (%s): argstream must refuse the stream, and does not", present[0].Reader, r.Reader, d)
		}
	}
	ref, readErr := present[0], error(nil)
	for _, r := range present {
		if r.Err != nil {
			readErr = r.Err
		}
	}
	byIndex := map[int64]SDKCall{}
	for _, c := range ref.Calls {
		byIndex[c.Index] = c
	}
	for _, r := range a.Results {
		if !r.Executable {
			continue
		}
		c, ok := byIndex[r.Index]
		switch {
		case !ok:
			return fmt.Errorf("argstream executes call #%d, which the SDK does not read", r.Index)
		case c.ID != r.ID || c.Name != r.Name:
			return fmt.Errorf("argstream executes call #%d as %q %q, the SDK reads it as %q %q", r.Index, r.ID, r.Name, c.ID, c.Name)
		case c.Type != "" && c.Type != "function":
			return fmt.Errorf("argstream executes call #%d, which the SDK reads as of type %q", r.Index, c.Type)
		case !JSONEqual(c.Args, r.Args):
			return fmt.Errorf("argstream executes call #%d with arguments %s, the SDK reads %s", r.Index, shorten(r.Args, 200), shorten(c.Args, 200))
		}
	}
	if a.Err != nil || readErr != nil {
		return nil
	}
	results := map[int64]Result{}
	for _, r := range a.Results {
		results[r.Index] = r
	}
	for _, c := range ref.Calls {
		r, ok := results[c.Index]
		switch {
		case !ok:
			return fmt.Errorf("the SDK reads call #%d (%q %q), which argstream does not report", c.Index, c.ID, c.Name)
		case r.ID != c.ID || r.Name != c.Name:
			return fmt.Errorf("the SDK reads call #%d as %q %q, argstream as %q %q", c.Index, c.ID, c.Name, r.ID, r.Name)
		}
	}
	return nil
}

func anyExecutable(rs []Result) bool {
	for _, r := range rs {
		if r.Executable {
			return true
		}
	}
	return false
}

// diffCalls says how two readings' calls differ, "" if they do not.
func diffCalls(a, b []SDKCall) string {
	bi := map[int64]SDKCall{}
	for _, c := range b {
		bi[c.Index] = c
	}
	for _, x := range a {
		y, ok := bi[x.Index]
		switch {
		case !ok:
			return fmt.Sprintf("call #%d only in the first", x.Index)
		case x.ID != y.ID || x.Name != y.Name || x.Type != y.Type:
			return fmt.Sprintf("call #%d is %q %q %q, then %q %q %q", x.Index, x.ID, x.Name, x.Type, y.ID, y.Name, y.Type)
		case !JSONEqual(x.Args, y.Args) && x.Args != y.Args:
			return fmt.Sprintf("call #%d has arguments %s, then %s", x.Index, shorten(x.Args, 120), shorten(y.Args, 120))
		}
		delete(bi, x.Index)
	}
	for i := range bi {
		return fmt.Sprintf("call #%d only in the second", i)
	}
	return ""
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
