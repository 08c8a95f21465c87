package policy

import (
	"math/big"
	"testing"
)

func TestDecimalCompare(t *testing.T) {
	// Each row is in increasing order; values in one group are equal.
	order := [][]string{
		{"-1e400"},
		{"-9007199254740993"},
		{"-9007199254740992", "-9.007199254740992e15"},
		{"-1.5"},
		{"-1", "-1.0", "-10e-1", "-0.1e1"},
		{"-1e-400"},
		{"0", "-0", "0.0", "0e5", "-0.000e-9"},
		{"1e-400"},
		{"0.1", "1e-1", "0.10"},
		{"0.12"},
		{"0.123"},
		{"1", "1.0", "1e0", "10e-1", "0.001E3", "1.000000000000000000000000000000"},
		{"1.0000000000000000000000000000001"},
		{"2"},
		{"10", "1e1", "1E+1", "100e-1"},
		{"9007199254740992"},
		{"9007199254740993"},
		{"1e400"},
		{"1e99999999999999999999"},
	}
	var flat []decimal
	var group []int
	for g, row := range order {
		for _, s := range row {
			d, ok := parseDecimal(s)
			if !ok {
				t.Fatalf("parseDecimal(%q) failed", s)
			}
			flat = append(flat, d)
			group = append(group, g)
		}
	}
	for i := range flat {
		for j := range flat {
			want := 0
			if group[i] < group[j] {
				want = -1
			} else if group[i] > group[j] {
				want = 1
			}
			if got := flat[i].cmp(flat[j]); got != want {
				t.Errorf("cmp(%v, %v) = %d, want %d", flat[i], flat[j], got, want)
			}
		}
	}
}

func TestParseDecimalRejects(t *testing.T) {
	for _, s := range []string{"", "-", "+1", "01", "1.", ".5", "1e", "1e+", "0x10", "Inf", "NaN", " 1", "1 ", "1.5.2", "--1", "1_000"} {
		if _, ok := parseDecimal(s); ok {
			t.Errorf("parseDecimal(%q) accepted", s)
		}
	}
}

func TestParseDecimalExponentIsExact(t *testing.T) {
	d, _ := parseDecimal("12.5e99999999999999999999")
	want, _ := new(big.Int).SetString("100000000000000000001", 10) // 12.5 = 0.125e2
	if d.digits != "125" || d.exp.Cmp(want) != 0 {
		t.Errorf("got 0.%s e%v", d.digits, d.exp)
	}
}
