package adapter

import "testing"

func TestFastHelpers(t *testing.T) {
	for _, tc := range []struct {
		data string
		i    int
		want int
	}{
		{`"abc"`, 0, 4}, {`x""`, 1, 2}, {`"a\"b"`, 0, 5}, {`"a\\"b"`, 0, 4}, {`"a\\\"b"`, 0, 7},
		{`"abc`, 0, -1}, {`abc"`, 0, -1}, {`"\"`, 0, -1}, {``, 0, -1},
	} {
		if got := StringEnd([]byte(tc.data), tc.i); got != tc.want {
			t.Errorf("StringEnd(%q, %d) = %d, want %d", tc.data, tc.i, got, tc.want)
		}
	}
	for _, tc := range []struct {
		data string
		n    int64
		j    int
		ok   bool
	}{
		{`0`, 0, 1, true}, {`12,`, 12, 2, true}, {`999999999999999999}`, 999999999999999999, 18, true},
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
