package jsonlayout

import (
	"regexp"
	"slices"
	"testing"
)

// TestReordered: Reordered writes the same names in the same order in
// every value, whatever their order in the input, and the values intact.
func TestReordered(t *testing.T) {
	names := regexp.MustCompile(`"[a-z]+":`)
	var orders [][]string
	for _, data := range []string{
		`{"b":1,"a":2,"c":{"y":1,"x":2,"z":[{"q":1,"p":2}]},"d":null}`,
		`{"d":null,"c":{"z":[{"p":20,"q":10}],"x":2,"y":1},"a":3,"b":4}`,
	} {
		out, err := Relayout([]byte(data), Layout{Order: Reordered, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, m := range names.FindAll(out, -1) {
			order = append(order, string(m))
		}
		orders = append(orders, order)
		if len(out) != len(data) {
			t.Errorf("Relayout(%s) = %s: not the same bytes", data, out)
		}
	}
	if !slices.Equal(orders[0], orders[1]) {
		t.Errorf("orders %v and %v differ", orders[0], orders[1])
	}
	flat := `{"b":1,"a":2,"c":3,"d":null,"e":5}`
	out, err := Relayout([]byte(flat), Layout{Order: Reordered, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) == flat || string(out) == `{"a":2,"b":1,"c":3,"d":null,"e":5}` {
		t.Errorf("Relayout(%s) = %s: in the input's order, or sorted", flat, out)
	}
}
