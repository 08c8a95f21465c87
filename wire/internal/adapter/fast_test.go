package adapter

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/jsonlayout"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

func TestFastHelpers(t *testing.T) {
	for _, tc := range []struct {
		data string
		n    int64
		j    int
		ok   bool
	}{
		{`0`, 0, 1, true}, {`12,`, 12, 2, true}, {`999999999999999}`, 999999999999999, 15, true}, {`9999999999999999}`, 0, 0, false},
		{`1000000000000000000`, 0, 0, false}, {`01`, 0, 0, false}, {`-1`, 0, 0, false}, {``, 0, 0, false}, {`x`, 0, 0, false},
	} {
		if n, j, ok := Index([]byte(tc.data), 0); n != tc.n || j != tc.j || ok != tc.ok {
			t.Errorf("Index(%q) = %d, %d, %v, want %d, %d, %v", tc.data, n, j, ok, tc.n, tc.j, tc.ok)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
	if got := SkipSpace([]byte(" \v"), 0); got != 1 {
		t.Errorf("SkipSpace = %d, want 1", got)
	}
}

// refValue is jsontext's reading of data as one value: its end, and its
// text if it is a string; end is -1 if jsontext rejects it.
func refValue(data []byte) (text []byte, end int) {
	d := jsontext.NewDecoder(bytes.NewReader(data))
	v, err := d.ReadValue()
	if err != nil {
		return nil, -1
	}
	end = int(d.InputOffset())
	if v.Kind() == '"' { // before the next call, which v is borrowed until
		text, _ = jsontext.AppendUnquote(nil, v)
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, -1
	}
	return text, end
}

// unquoteVsRef checks Unquote, UnquoteWhole and SkipString on s against
// jsontext: the same text and end where jsontext reads s as one string,
// failure where it does not.
func unquoteVsRef(s string) string {
	data := []byte(s)
	want, wantEnd := refValue(data)
	if len(s) == 0 || s[0] != '"' {
		wantEnd = -1
	}
	// As jsontext reads the whole of s: a string, then white space alone.
	whole := func(end int) int {
		if end >= 0 && SkipSpace(data, end) != len(data) {
			return -1
		}
		return end
	}
	// Into a dst of any capacity ("stale" holds bytes): it grows when it
	// must, and never writes past its capacity (the words it stores
	// ahead included).
	if got, end := Unquote([]byte("stale"), data, 0); whole(end) != wantEnd || wantEnd >= 0 && string(got) != string(want) {
		return fmt.Sprintf("Unquote(%q) = %q, %d; jsontext %q, %d", s, got, end, want, wantEnd)
	}
	for _, c := range []int{0, 1, 7, 8, 9, len(s) - 1, len(s), len(s) + 8} {
		c = max(c, 0)
		backing := bytes.Repeat([]byte{'#'}, c+16)
		got, end := Unquote(backing[:0:c], data, 0)
		if whole(end) != wantEnd || wantEnd >= 0 && string(got) != string(want) {
			return fmt.Sprintf("Unquote(%q) into a dst of capacity %d = %q, %d; jsontext %q, %d", s, c, got, end, want, wantEnd)
		}
		got, end = UnquoteWhole(backing[:0:c], data, 0)
		if whole(end) != wantEnd || wantEnd >= 0 && string(got) != string(want) {
			return fmt.Sprintf("UnquoteWhole(%q) into a dst of capacity %d = %q, %d; jsontext %q, %d", s, c, got, end, want, wantEnd)
		}
		if tail := backing[c:]; bytes.Count(tail, []byte{'#'}) != len(tail) {
			return fmt.Sprintf("Unquote(%q) into a dst of capacity %d wrote past it: %q", s, c, tail)
		}
	}
	if end := SkipString(data, 0); whole(end) != wantEnd {
		return fmt.Sprintf("SkipString(%q) = %d; jsontext %d", s, end, wantEnd)
	}
	return ""
}

// unquoteCases are strings for TestUnquote, and FuzzUnquote's seeds.
var unquoteCases = []string{
	`"abc"`, `""`, `"a\"b"`, `"a\\"`, `"tab\there"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00"`, "\"\x7f del\"",
	"\"h\xc3\xa9llo\"", `"0123456789abcdef0123456789"`, `"a/b\/c"`, `"\b\f\n\r\t\u0000\u001F\uFFFF\uD83D\uDE00"`,
	// Invalid: a control byte, a bad escape, a lone or reversed
	// surrogate, bad UTF-8, no end.
	"\"a\x01b\"", `"\x"`, `"\ud800"`, `"\udc00"`, `"\udc00\ud800"`, `"\ud800\u0041"`, `"\ud800\n"`, `"\ud800x"`,
	`"\u00g0"`, `"\u00e"`, `"\`, "\"\xff\"", "\"\xed\xa0\x80\"", "\"\xc0\xaf\"", "\"\xe2\x82\"", `"abc`, `"\"`, `abc"`, ``,
	// Runs of plain bytes that end in each place of a word.
	`"0123456\"x"`, `"01234567\n"`, `"012345678é\u00e9"`, `"0123456789abcde\\\"fgh"`,
}

func TestUnquote(t *testing.T) {
	for _, s := range unquoteCases {
		if problem := unquoteVsRef(s); problem != "" {
			t.Error(problem)
		}
	}
}

// skipVsRef checks Skip on s against jsontext: Skip takes only what
// jsontext reads as one value, ending where it does.
func skipVsRef(s string) (took bool, problem string) {
	data := []byte(s)
	_, wantEnd := refValue(data)
	i := SkipSpace(data, 0)
	end := Skip(data, i)
	if end >= 0 {
		end = SkipSpace(data, end)
	}
	if end != len(data) {
		return false, ""
	}
	if wantEnd < 0 {
		return true, fmt.Sprintf("Skip(%q) took it, jsontext rejects it", s)
	}
	return true, ""
}

// FuzzUnquote: Unquote and SkipString read a string as jsontext does.
//
//	go test -run '^$' -fuzz FuzzUnquote ./wire/internal/adapter
func FuzzUnquote(f *testing.F) {
	for _, s := range unquoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if problem := unquoteVsRef(s); problem != "" {
			t.Error(problem)
		}
	})
}

func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		data string
		took bool
	}{
		{`{}`, true}, {`[]`, true}, {` { "a" : [ 1 , -0.5e+3 , true , false , null , "x" , { } ] } `, true},
		{`{"a":{"b":1},"b":{"a":1},"A":2}`, true}, {`[{"a":1},{"a":1}]`, true}, {"{\"é\":1,\"e\":2}", true},
		{`{"a":1,"a":2}`, false}, {`[{"b":[{"c":1,"c":1}]}]`, false}, {`{"\u0061":1}`, false},
		{`[1,]`, false}, {`{"a":1,}`, false}, {`{"a"}`, false}, {`{"a":}`, false}, {`[01]`, false}, {`[1.]`, false},
		{`[-]`, false}, {`[1e]`, false}, {`[tru]`, false}, {`[nul]`, false}, {`[truex]`, false}, {`[1 2]`, false},
		{`"\ud800"`, false}, {"[\"\xff\"]", false}, {`[`, false}, {`{`, false},
		{strings.Repeat("[", 16) + strings.Repeat("]", 16), true},
		{strings.Repeat("[", 17) + strings.Repeat("]", 17), false},
	} {
		took, problem := skipVsRef(tc.data)
		if problem != "" {
			t.Error(problem)
		}
		if took != tc.took {
			t.Errorf("Skip(%q) took it: %v, want %v", tc.data, took, tc.took)
		}
	}
}

// randomValue is a JSON value drawn from rng, at most depth deep, now and
// then with a repeated name, an escaped one, a bad string or number.
func randomValue(rng *rand.Rand, depth int) string {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(6) {
			b.WriteString(pick("a", "é", "😀", `\"`, `\\`, `\/`, `\n`, `\u00e9`, `\ud83d\ude00`, `\u0000`, " ", "{",
				`\ud800`, "\xff", "\x01", `\x`))
		}
		b.WriteByte('"')
		return b.String()
	}
	switch k := rng.IntN(8); {
	case k < 2 || depth == 0:
		return pick(str(), "0", "-1", "1.5e-3", "01", "1.", "true", "false", "null", "nul", "-")
	case k < 5:
		var elems []string
		for range rng.IntN(4) {
			elems = append(elems, randomValue(rng, depth-1))
		}
		return "[" + strings.Join(elems, pick(",", ", ", "\n,\t")) + "]"
	default:
		var members []string
		for range rng.IntN(4) {
			name := pick(`"a"`, `"b"`, `"A"`, `"é"`, `"\u0061"`, `""`)
			members = append(members, name+pick(":", " : ")+randomValue(rng, depth-1))
		}
		return "{" + strings.Join(members, pick(",", " ,\n")) + "}"
	}
}

// TestPropertySkipUnquote: on random values, and on random strings
// written as Python writes them, Skip and Unquote take only what jsontext
// reads, and read it as jsontext does.
func TestPropertySkipUnquote(t *testing.T) {
	var took, declined int
	properties := gopter.NewProperties(testutil.PropertyParameters(2000))
	properties.Property("Skip and Unquote read as jsontext", prop.ForAll(
		func(seed uint64) string {
			rng := rand.New(rand.NewPCG(seed, 5))
			v := randomValue(rng, 4)
			ok, problem := skipVsRef(v)
			if ok {
				took++
			} else {
				declined++
			}
			if problem != "" {
				return problem
			}
			if v[0] == '"' {
				if problem := unquoteVsRef(v); problem != "" {
					return problem
				}
				if text, end := refValue([]byte(v)); end >= 0 {
					return unquoteVsRef(string(jsonlayout.AppendASCII(nil, text)))
				}
			}
			return ""
		},
		gen.UInt64(),
	))
	properties.TestingRun(t)
	if took == 0 || declined == 0 {
		t.Errorf("Skip took %d values, declined %d: the generator misses a side", took, declined)
	}
}

// manyMembers is an object of n members m0, m1... and then extra, if not
// empty.
func manyMembers(n int, extra string) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, `,"m%d":%d`, k, k)
	}
	if extra != "" {
		b.WriteString("," + extra)
	}
	return "{" + b.String()[1:] + "}"
}

// manyNames is what TestMembers reads of manyMembers(n, ...).
func manyNames(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "m%d,", k)
	}
	return b.String()
}

// TestMembers: names that the Decoder refuses or matches otherwise are
// declined; the rest read in any layout.
func TestMembers(t *testing.T) {
	known := Names{"type", "partial_json"}
	for _, tc := range []struct {
		data string
		want string // the names read, or "-" if declined
	}{
		{`{}`, ""}, {` { } `, ""},
		{`{"type":"a","partial_json":"b"}`, "type,partial_json,"},
		{"{ \"type\" :\t\"a\" ,\n\"x\" : [1, {\"y\": null}] }", "type,x,"},
		{`{"X":1,"y":2,"Z":3}`, "X,y,Z,"},
		{`{"Type":"a"}`, "-"}, {`{"PARTIAL_JSON":"a"}`, "-"}, {`{"x":1,"X":2}`, "-"}, {`{"X":1,"x":2}`, "-"},
		{`{"type":"a","type":"b"}`, "-"}, {`{"\u0074ype":"a"}`, "-"}, {"{\"\xe2\x84\xaa\":1}", "-"},
		{`{"a":1,}`, "-"}, {`{"a" 1}`, "-"}, {`{"a":1 "b":2}`, "-"}, {`{"a":1`, "-"},
		// More than FastMaxMembers: declined; as many: read, past the
		// names kept in place, a repeat of any of them declined.
		{manyMembers(FastMaxMembers+1, ""), "-"},
		{manyMembers(FastMaxMembers, ""), manyNames(FastMaxMembers)},
		{manyMembers(40, `"m3":0`), "-"}, {manyMembers(40, `"m39":0`), "-"}, {manyMembers(40, `"M20":0`), "-"},
		{manyMembers(40, `"m40":0`), manyNames(41)},
	} {
		data := []byte(tc.data)
		var got strings.Builder
		ok := FastRoot(data, known, func(name []byte, i int) int {
			got.WriteString(string(name) + ",")
			return Skip(data, i)
		})
		if !ok {
			got.Reset()
			got.WriteString("-")
		}
		if got.String() != tc.want {
			t.Errorf("FastRoot(%q) read %q, want %q", tc.data, got.String(), tc.want)
		}
	}
	// Skip's objects alike.
	for _, tc := range []struct {
		data string
		ok   bool
	}{
		{manyMembers(FastMaxMembers, ""), true}, {manyMembers(FastMaxMembers+1, ""), false},
		{manyMembers(40, `"m17":0`), false}, {manyMembers(40, `"m2":0`), false}, {manyMembers(40, `"M2":0`), true},
	} {
		if got := Skip([]byte(tc.data), 0); (got == len(tc.data)) != tc.ok || !tc.ok && got != -1 {
			t.Errorf("Skip(%q) = %d, want ok %v", tc.data, got, tc.ok)
		}
	}
}

// BenchmarkMembers: FastRoot over a Chat Completions chunk, each value
// skipped: the cost of reading an event in a layout not learned.
//
//	go test -run '^$' -bench Members -benchmem ./wire/internal/adapter
func BenchmarkMembers(b *testing.B) {
	data := []byte(`{"id":"chatcmpl-BenchSyntheticStream000000000","object":"chat.completion.chunk","created":1727346180,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_b40fb1c6fb","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ol\\n\\t"}}]},"logprobs":null,"finish_reason":null}],"obfuscation":"x9"}`)
	var member func(name []byte, i int) int
	member = func(name []byte, i int) int {
		switch data[i] {
		case '{':
			return Members(data, i, nil, member)
		case '[':
			j, more := i+1, true
			for more {
				j, more = Next(data, Members(data, j, nil, member), ']')
			}
			return j
		}
		return Skip(data, i)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !FastRoot(data, nil, member) {
			b.Fatal("declined")
		}
	}
}

// TestNameEnd: nameEnd against a byte-by-byte reference, on printable
// ASCII names of every length up to 40, the bytes around 'A' and 'Z'
// dense, followed by what ends a name (a quote, or a byte that is not
// plain) and by more bytes, of any kind, or by nothing.
func TestNameEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("@AZ[`az{ 0~" + "bcdefghijklmnopqrstuvwxy")
	for n := range 40000 {
		name := make([]byte, n%41)
		for k := range name {
			if rng.IntN(2) == 0 {
				name[k] = alphabet[rng.IntN(len(alphabet))]
			} else {
				name[k] = byte(' ' + rng.IntN(95))
			}
			if name[k] == '"' || name[k] == '\\' {
				name[k] = 'Q'
			}
		}
		data := append([]byte("{\""), name...)
		if rng.IntN(8) != 0 {
			data = append(data, []byte{'"', '\\', 0x1f, 0x80, 0xc3, 0xff}[rng.IntN(6)])
			for range rng.IntN(12) {
				data = append(data, byte(rng.IntN(256)))
			}
		}
		want := bytes.ContainsFunc(name, func(r rune) bool { return 'A' <= r && r <= 'Z' })
		if end, upper := nameEnd(data, 2); end != 2+len(name) || upper != want {
			t.Fatalf("nameEnd(%q, 2) = %d, %v, want %d, %v", data, end, upper, 2+len(name), want)
		}
	}
}

// BenchmarkSkip: Skip over the values of the members an adapter does not
// read (OpenAI's sequence numbers and padding among them).
//
//	go test -run '^$' -bench Skip -benchmem ./wire/internal/adapter
func BenchmarkSkip(b *testing.B) {
	data := []byte(`{"sequence_number":12345,"obfuscation":"nWru1sTmaAzi9","n":-1.5e3,"t":true}`)
	for b.Loop() {
		if !FastRoot(data, nil, func(name []byte, i int) int { return Skip(data, i) }) {
			b.Fatal("declined")
		}
	}
}

// BenchmarkUnquote: Unquote over a long partial_json of modifyFile's
// arguments (source text in a JSON string, in a JSON string: escapes of
// escapes), over plain text of the same length, and over the partial_json
// of twenty of its deltas in a row, as they come (BenchmarkWire's cuts, the
// event's "}}" after each), reported per delta.
//
//	go test -run '^$' -bench Unquote -benchmem ./wire/internal/adapter
func BenchmarkUnquote(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []string
	}{
		{"escaped", []string{`"\tif err != nil {\\n\\t\\treturn fmt.Errorf(\\\"read %s: %w\\\", path, err)\\n\\t}\\n"`}},
		{"plain", []string{`"func (r *Reader) Reset(resp *toolcall.Response) { r.resp = resp; r.n = 0 }"`}},
		{"deltas", []string{`"\":\"  "`, `"  let gre"`, `"et"`, `"ing = \\\"hél"`, `"lo, wö"`, `"rld "`,
			`"😀\\\";\\n "`, `"   // "`, `"a comment with a"`, `" \\\\"`, `" backsla"`, `"sh and \\\"qu"`, `"ot"`,
			`"es\\\"\\n "`, `"   //"`, `" a comment w"`, `"ith a "`, `"\\\\ backsl"`, `"ash "`, `"and \\\"quot"`}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var data [][]byte
			size := 0
			for _, s := range tc.data {
				data = append(data, []byte(s+"}}"))
				size += len(s)
			}
			var dst []byte
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, d := range data {
					var j int
					if dst, j = Unquote(dst, d, 0); j != len(d)-2 {
						b.Fatal("declined")
					}
				}
			}
			if len(data) > 1 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(data)), "ns/delta")
			}
		})
	}
}
