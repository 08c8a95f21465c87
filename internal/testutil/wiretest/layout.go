package wiretest

import (
	"math/rand/v2"
	"testing"

	"github.com/argstream/argstream/internal/testutil/jsonlayout"
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
