// Package fuzz holds argstream's fuzz targets. Run one with
//
//	go test ./fuzz -run '^$' -fuzz FuzzChunking -fuzztime 5m
//
// Plain go test runs every target on its seed corpus: the files under
// ../testdata and the interesting inputs found so far, in testdata/fuzz.
package fuzz
