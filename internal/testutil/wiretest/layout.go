package wiretest

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil"
	"github.com/argstream/argstream/internal/testutil/jsonlayout"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// UnknownMembers are members that no adapter reads, scalar and composite,
// nested, as providers and relays add them (OpenAI's obfuscation and
// logprobs among them), for RandomLayout.
var UnknownMembers = []string{
	`"obfuscation":"nWru1s"`,
	`"x_n":-1.5e3`,
	`"x_s":"caf\u00e9 é \ud83d\ude00 \"q\" \\ \/"`,
	`"x_t":true`,
	`"x_null":null`,
	`"logprobs":{"content":[{"token":"a","logprob":-0.25,"bytes":[97],"top_logprobs":[]}],"refusal":null}`,
	`"x_arr":[[],{},[1,{"a":[null,true,false,"b"]}],0]`,
	`"x_obj":{"a":{"b":{"c":{"d":[{"e":"f"}]}}},"A":1}`,
	`"X_Trace":{"span":"9f1c","hops":[1,2]}`,
}

// LayoutSpaces are the sets of white space RandomLayout draws from.
var LayoutSpaces = [][]string{nil, {" "}, {"\n", "\t", "  ", "\r\n", " \n\t "}}

// RandomLayout is data, a JSON text, written again (jsonlayout.Relayout)
// in a layout drawn from rng: its members in their order, sorted or
// shuffled; white space after ':' and ',' or none; members of
// UnknownMembers added to the objects down to a random depth, or none;
// strings escaped as Python's json.dumps(ensure_ascii=True) escapes them,
// or as they were. It returns data itself if it is not valid JSON.
func RandomLayout(rng *rand.Rand, data []byte) []byte {
	l := jsonlayout.Layout{
		Order:  jsonlayout.Order(rng.IntN(3)),
		Spaces: LayoutSpaces[rng.IntN(len(LayoutSpaces))],
		ASCII:  rng.IntN(2) == 0,
		Rand:   rng,
	}
	if rng.IntN(2) == 0 {
		l.Unknown, l.UnknownDepth = UnknownMembers, rng.IntN(4)
	}
	out, err := jsonlayout.Relayout(data, l)
	if err != nil {
		return data
	}
	return out
}

// LayoutProperty checks, on 2,000 seeds, the fast path in every layout:
// event makes an event as the API writes it, which check gives to the fast
// path and the token decoder (as FastPathProperty's check does); then the
// event in a RandomLayout, which the fast path must take if it took the
// event as written; then that with MutateBytes, which it may decline.
func LayoutProperty(t *testing.T, event func(rng *rand.Rand) []byte, check func(data []byte) (took bool, problem string)) {
	t.Helper()
	FastPathProperty(t, func(rng *rand.Rand) (bool, string) {
		ev := event(rng)
		took, problem := check(ev)
		if problem != "" {
			return took, problem
		}
		laid := RandomLayout(rng, ev)
		tookLaid, problem := check(laid)
		if problem != "" {
			return tookLaid, problem
		}
		if took && !tookLaid {
			return false, "the fast path took " + string(ev) + " but declined it laid out as " + string(laid)
		}
		return check(MutateBytes(rng, laid))
	})
}

// Variant is data, an event's JSON text, with some of its strings and
// numbers replaced by others, mostly valid (Draw.Chars, numbers of other
// sizes), now and then not, and then some of its bytes mutated
// (MutateBytes): mostly an event of the same layout with other values, for
// the layouts the fast paths learn.
func Variant(rng *rand.Rand, data []byte) []byte {
	d := Draw{Rand: rng}
	var out []byte
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(data))
			k := j
			for k < len(data) && (data[k] == ' ' || data[k] == '\n' || data[k] == '\t' || data[k] == '\r') {
				k++
			}
			if k < len(data) && data[k] == ':' && rng.IntN(16) != 0 {
				out = append(out, data[i:j]...) // a name, mostly kept: the same layout
				i = j
				continue
			}
			switch rng.IntN(8) {
			case 0, 1:
				out = append(out, `"`+d.Chars(10)+`"`...)
			case 3:
				out = append(out, d.Pick(`null`, `""`, `"\u00e9\ud83d\ude00"`)...)
			default:
				out = append(out, data[i:j]...)
			}
			i = j
		case c == '-' || '0' <= c && c <= '9':
			j := i + 1
			for j < len(data) && (data[j] == '.' || data[j] == 'e' || data[j] == '+' || data[j] == '-' || '0' <= data[j] && data[j] <= '9') {
				j++
			}
			if rng.IntN(3) == 0 {
				out = append(out, d.Rare(d.Pick("0", "7", "12", "123456", "999999999999999"), "01", "-1", "1.5", "9999999999999999", `"1"`, "null")...)
			} else {
				out = append(out, data[i:j]...)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return MutateBytes(rng, out)
}

// SequenceProperty checks, on 500 seeds, a reader kept from event to
// event, as the fast paths' learned layouts see them: event makes an event
// as the API writes it, RandomLayout lays it out, and Variant makes the
// events of a sequence from that; check reads the sequence with one reader
// and each event with a fresh token decoder, and reports how many events
// its fast path read by the layout it had learned and how the two differ.
// It fails t if the fast path read none so.
func SequenceProperty(t *testing.T, event func(rng *rand.Rand) []byte, check func(events [][]byte) (took int, problem string)) {
	t.Helper()
	var took, events int
	properties := gopter.NewProperties(testutil.PropertyParameters(500))
	properties.Property("a reader kept from event to event reads each as the decoder", prop.ForAll(
		func(seed uint64) string {
			rng := rand.New(rand.NewPCG(seed, 7))
			first := RandomLayout(rng, event(rng))
			seq := [][]byte{first}
			// Now and then a long sequence whose layout changes often, for
			// the layouts learned in a row and the rests after them: its
			// events are variants of a few events in a few layouts.
			pool := [][]byte{first}
			n := 2 + rng.IntN(20)
			if rng.IntN(4) == 0 {
				n = 50 + rng.IntN(150)
				pool = append(pool, RandomLayout(rng, first), RandomLayout(rng, first),
					RandomLayout(rng, event(rng)), RandomLayout(rng, event(rng)))
			}
			for range n {
				seq = append(seq, Variant(rng, pool[rng.IntN(len(pool))]))
			}
			n, problem := check(seq)
			took += n
			events += len(seq)
			return problem
		},
		gen.UInt64(),
	))
	properties.TestingRun(t)
	t.Logf("the fast path read %d events of %d by the layout learned", took, events)
	if took == 0 {
		t.Error("the fast path read no event by the layout learned: the generator misses a side")
	}
}

// Sequence checks each of events in turn with check (FastVsSlow on readers
// kept from event to event), and returns how many the fast path took and
// the first problem.
func Sequence(events [][]byte, check func(data []byte) (took bool, problem string)) (int, string) {
	n := 0
	for _, ev := range events {
		took, problem := check(ev)
		if took {
			n++
		}
		if problem != "" {
			return n, problem
		}
	}
	return n, ""
}
