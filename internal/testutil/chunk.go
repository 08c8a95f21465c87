package testutil

import "math/rand/v2"

// SplitAt cuts data at the given offsets (in any order, out-of-range ones
// ignored, repeats giving empty chunks).
func SplitAt(data []byte, cuts []int) [][]byte {
	sorted := append([]int(nil), cuts...)
	for i := 1; i < len(sorted); i++ { // insertion sort: cut lists are short
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	var chunks [][]byte
	prev := 0
	for _, c := range sorted {
		if c < prev || c > len(data) {
			continue
		}
		chunks = append(chunks, data[prev:c])
		prev = c
	}
	return append(chunks, data[prev:])
}

// SplitEvery cuts data into n-byte chunks.
func SplitEvery(data []byte, n int) [][]byte {
	var chunks [][]byte
	for len(data) > n {
		chunks = append(chunks, data[:n])
		data = data[n:]
	}
	return append(chunks, data)
}

// SplitRandom cuts data into chunks of random length 0 to maxLen.
func SplitRandom(data []byte, rng *rand.Rand, maxLen int) [][]byte {
	var chunks [][]byte
	for len(data) > 0 {
		n := min(rng.IntN(maxLen+1), len(data))
		chunks = append(chunks, data[:n])
		data = data[n:]
	}
	return chunks
}
