#!/usr/bin/env bash
# The tokenizer and the pipeline on the go directive's toolchain (the one
# installed here) and on the newest Go 1.27, whose standard library provides
# encoding/json/jsontext (the go-json-experiment module then aliases it), on
# the DESIGN.md workloads at 16-byte and 1 KiB chunks. Each figure's ratio is
# to whole-document jsontext measured in the same run, on the same
# toolchain. About 4 minutes on 2 cores; results in results/toolchain-*.txt
# and, with benchstat installed, a comparison.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results
go127=${GO127:-go1.27.4}
filter='^BenchmarkStream$/^file=(createFile|modifyFile)-(100k|1m)$/^chunk=(16|1024)$/^impl=argstream-(tokenizer|pipeline)$'
for tc in local "$go127"; do
	GOTOOLCHAIN=$tc go version | tee "results/toolchain-$tc.txt"
	GOTOOLCHAIN=$tc go test -run '^$' -benchmem -bench "$filter" -benchtime 0.3s -count 6 . | tee -a "results/toolchain-$tc.txt"
done
if command -v benchstat >/dev/null; then
	benchstat "results/toolchain-local.txt" "results/toolchain-$go127.txt" | tee results/toolchains.txt
fi
