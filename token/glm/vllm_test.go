package glm

import (
	"testing"

	"github.com/argstream/argstream/internal/tagscan/tagscantest"
)

// TestVLLM reads calls transcribed from vLLM's tests of its glm45 and
// glm47 parsers (tests/tool_parsers/test_glm4_moe_tool_parser.py and
// test_glm47_moe_tool_parser.py; Apache-2.0, Copyright contributors to the
// vLLM project), each one call's source. They give the arguments vLLM
// expects; vLLM's tools there declare only some of the parameters, so they
// are read untyped (a schema listing properties refuses the others).
func TestVLLM(t *testing.T) {
	dialect.Cases(t, []tagscantest.Case{
		{Name: "single_tool_call", In: "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    <arg_key>state</arg_key>\n    <arg_value>TX</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    </tool_call>",
			Want: `{"city":"Dallas","state":"TX","unit":"fahrenheit"}`},
		{Name: "tool_call_with_chinese_content", In: "<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Beijing</arg_value>\n    <arg_key>date</arg_key>\n    <arg_value>2025-08-01</arg_value>\n    </tool_call>",
			Want: `{"city":"Beijing","date":"2025-08-01"}`},
		{Name: "with_thinking_tags", In: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>",
			Want: `{"city":"Beijing","date":"2025-08-01"}`},
		{Name: "empty_arguments", In: "<tool_call>get_current_time\n</tool_call>", Want: `{}`},
		{Name: "special_characters", In: "<tool_call>send_message\n<arg_key>recipient</arg_key>\n<arg_value>Amy</arg_value>\n<arg_key>message</arg_key>\n<arg_value>It is a nice day</arg_value>\n<arg_key>priority</arg_key>\n<arg_value>high</arg_value>\n</tool_call>",
			Want: `{"recipient":"Amy","message":"It is a nice day","priority":"high"}`},
		{Name: "glm47 zero_arg_inline", In: "<tool_call>get_current_date</tool_call>", Want: `{}`},
		{Name: "glm47 zero_arg_newline", In: "<tool_call>get_current_date\n</tool_call>", Want: `{}`},
		{Name: "glm47 args_same_line", In: "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>", Want: `{"city":"Beijing"}`},
		{Name: "glm47 args_with_newlines", In: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>", Want: `{"city":"Beijing"}`},
	})
	// Read differently on purpose: vLLM's malformed_xml case (an <arg_key>
	// left unclosed) is an error here, where vLLM extracts what it can;
	// its incomplete_tool_call case (no </tool_call>) is ErrTruncated.
	in := "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seattle</arg_value>\n<arg_key>incomplete_arg\n<arg_value>value</arg_value>\n</tool_call>"
	if o, err := tagscantest.Run(dialect.NewFunc(), tagscantest.Whole([]byte(in))); err != nil || o.Err == "" {
		t.Errorf("malformed_xml: %v %+v, want an error", err, o)
	}
}
