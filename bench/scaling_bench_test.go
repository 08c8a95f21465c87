package bench

import (
	"encoding/json"
	"strconv"
	"testing"
)

// scalingSizes are the document sizes BenchmarkScaling streams, each four
// times the one before: a linear contender keeps its ns/byte from one to
// the next, a quadratic one multiplies it by about four.
var scalingSizes = []int{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 0}

// scalingDocs cuts createFile-1m.json to each of scalingSizes (0: the whole
// file) and closes what is cut with ClosePartial, so that every size is the
// same shape, {"path":"...","content":"..."}, with the same content.
func scalingDocs(b *testing.B) []Workload {
	full := loadWorkloads(b, "createFile-1m.json")[0]
	var ws []Workload
	for _, n := range scalingSizes {
		data := full.Data
		name := "1m"
		if n > 0 {
			data = ClosePartial(nil, full.Data[:n])
			name = strconv.Itoa(n>>10) + "k"
		}
		if !json.Valid(data) {
			b.Fatalf("createFile-1m.json cut to %d bytes is not JSON", n)
		}
		ws = append(ws, Workload{Name: name, Data: data})
	}
	return ws
}

// BenchmarkScaling streams createFile (one long string) cut to 1 KiB, 4 KiB,
// ... 256 KiB and the whole 1 MB workload, in 16-byte chunks, through every
// contender, and whole-document jsontext tokenization (impl=whole-jsontext)
// as the reference, and reports ns/byte: flat for the linear contenders, growing
// with the size for the quadratic ones (naive-jsontext, reparse), which
// -maxwork cuts off (set it to 4e10 to include naive-jsontext at 1 MB; a
// run then takes about a minute).
//
// BenchmarkScaling/size=S/impl=C.
func BenchmarkScaling(b *testing.B) {
	const chunk = 16
	for _, w := range scalingDocs(b) {
		b.Run("size="+w.Name, func(b *testing.B) {
			for _, c := range Contenders() {
				b.Run("impl="+c.Name, func(b *testing.B) {
					skipCostly(b, c, w.Data, chunk)
					b.SetBytes(int64(len(w.Data)))
					b.ReportAllocs()
					for b.Loop() {
						s := c.New()
						if err := Stream(s, w.Data, chunk); err != nil || s.Units() <= 0 {
							b.Fatal(s.Units(), err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(w.Data)), "ns/byte")
				})
			}
			// The reference: the complete document, tokenized once.
			b.Run("impl=whole-jsontext", func(b *testing.B) {
				b.SetBytes(int64(len(w.Data)))
				b.ReportAllocs()
				for b.Loop() {
					if n, err := WholeJSONText(w.Data); err != nil || n == 0 {
						b.Fatal(n, err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(w.Data)), "ns/byte")
			})
		})
	}
}
