package adapter

import (
	"fmt"
	"testing"
)

// TestElements: Elements reads arrays in any white space, each element by
// elem, and declines what is not an array of elements elem reads.
func TestElements(t *testing.T) {
	for _, tc := range []struct {
		data string
		want string // the positions and values elem saw, and the index returned
	}{
		{`[]`, "2"},
		{`[ ]x`, "3"},
		{`[1]`, "0:1 3"},
		{`[ 1 , "a" ,null]`, "0:1 1:\"a\" 2:null 16"},
		{"[\n1,\t2\r\n]", "0:1 1:2 9"},
		{`[1,]`, "0:1 1:] -1"},
		{`[1 2]`, "0:1 -1"},
		{`[,1]`, "0:, -1"},
		{`[1`, "0:1 -1"},
		{`null`, "-1"},
		{`{}`, "-1"},
		{``, "-1"},
	} {
		got := ""
		j := Elements([]byte(tc.data), 0, func(k, i int) int {
			e := Skip([]byte(tc.data), i)
			if e < 0 {
				got += fmt.Sprintf("%d:%s ", k, tc.data[i:i+1])
				return -1
			}
			got += fmt.Sprintf("%d:%s ", k, tc.data[i:e])
			return e
		})
		if got += fmt.Sprint(j); got != tc.want {
			t.Errorf("Elements(%q): %s, want %s", tc.data, got, tc.want)
		}
	}
}

// TestBoolNull: Bool reads true, false and null (false); Null reads null;
// both decline anything else, a prefix of a literal among them.
func TestBoolNull(t *testing.T) {
	for _, tc := range []struct {
		data    string
		b       bool
		j, null int
	}{
		{`true,`, true, 4, -1}, {`false}`, false, 5, -1}, {`null`, false, 4, 4}, {`nul`, false, -1, -1},
		{`tru`, false, -1, -1}, {`"true"`, false, -1, -1}, {`1`, false, -1, -1}, {``, false, -1, -1},
	} {
		b := !tc.b
		if j := Bool([]byte(tc.data), 0, &b); j != tc.j || j >= 0 && b != tc.b {
			t.Errorf("Bool(%q) = %d, %v, want %d, %v", tc.data, j, b, tc.j, tc.b)
		}
		if j := Null([]byte(tc.data), 0); j != tc.null {
			t.Errorf("Null(%q) = %d, want %d", tc.data, j, tc.null)
		}
	}
}

// TestOtherCase: a name equal to one of the names under case folding, and
// not it, is another case of it, whatever the case of either.
func TestOtherCase(t *testing.T) {
	known := Names{"toolUse", "contentBlockIndex", "input"}
	for name, want := range map[string]bool{
		"toolUse": false, "tooluse": true, "TOOLUSE": true, "ToolUse": true, "toolUses": false, "tool_use": false,
		"input": false, "Input": true, "contentblockindex": true, "other": false, "": false,
	} {
		if got := OtherCase([]byte(name), known); got != want {
			t.Errorf("OtherCase(%q) = %v, want %v", name, got, want)
		}
	}
}
