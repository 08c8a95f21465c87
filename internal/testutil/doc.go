// Package testutil holds what argstream's tests share: random JSON for gopter
// property tests, the mutations that make it invalid and the number of cases
// to run ([PropertyParameters]; [Long] for the long runs of
// ARGSTREAM_LONG=1), ways to cut input into chunks, a sink that records
// fragments, reference results computed from a whole-document jsontext parse,
// independently of argstream's own code, and [CheckLinear], the n-against-4n
// timing that invariant 9 asks of adversarial shapes (docs/design.md,
// "Invariants": linear for every input).
//
// Its package tokentest holds the table tests that every JSON tokenizer
// passes.
package testutil
