package keyfold

import (
	"fmt"
	"testing"
)

// BenchmarkAdd adds the keys of typical tool arguments (short, lower case
// ASCII) and of mixed ones, in objects of 4 and of 40 keys.
func BenchmarkAdd(b *testing.B) {
	for _, kind := range []struct {
		name   string
		format string
	}{{"lower", "old_string%d"}, {"mixed", "Kéy%d"}} {
		for _, n := range []int{4, 40} {
			keys := make([][]byte, n)
			for i := range keys {
				keys[i] = []byte(fmt.Sprintf(kind.format, i))
			}
			b.Run(fmt.Sprintf("%s/keys=%d", kind.name, n), func(b *testing.B) {
				var s Set
				b.ReportAllocs()
				for b.Loop() {
					s.Reset()
					s.Open()
					for _, k := range keys {
						s.Add(k)
					}
					s.Close()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
			})
		}
	}
}
