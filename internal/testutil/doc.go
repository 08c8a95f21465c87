// Package testutil holds what argstream's tests share: random JSON for gopter
// property tests, ways to cut input into chunks, a sink that records
// fragments, and reference results computed from a whole-document jsontext
// parse, independently of argstream's own code.
package testutil
