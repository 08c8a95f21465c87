package aggregate

// Held returns the bytes of compact JSON a holds.
func Held(a *Aggregator) int { return len(a.buf) }
