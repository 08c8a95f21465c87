package minimax

import (
	"testing"

	"github.com/argstream/argstream/internal/tagscan/tagscantest"
)

// TestVLLM reads calls transcribed from vLLM's tests of its minimax_m2
// parser (tests/tool_parsers/test_minimax_m2_tool_parser.py; Apache-2.0,
// Copyright contributors to the vLLM project), each one <invoke> of the
// <minimax:tool_call> block, untyped as there.
func TestVLLM(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "single_chunk_complete", In: `<invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke>`, Want: `{"city":"Seattle"}`},
		{Name: "multiple_params", In: `<invoke name="get_weather"><parameter name="city">Seattle</parameter><parameter name="days">5</parameter></invoke>`,
			Want: `{"city":"Seattle","days":"5"}`},
		{Name: "two_invokes first", In: `<invoke name="search_web"><parameter name="query">OpenAI</parameter></invoke>`, Want: `{"query":"OpenAI"}`},
		{Name: "two_invokes_in_single_delta second", In: `<invoke name="fn_b"><parameter name="y">2</parameter></invoke>`, Want: `{"y":"2"}`},
	})
}
