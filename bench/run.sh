#!/usr/bin/env bash
# Runs every measurement that README.md reports and writes it to results/.
# About 30 minutes on 2 cores. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results
{
	echo "date: $(date -u +%FT%TZ)"
	echo "go: $(go version)"
	echo "nproc: $(nproc)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
	echo "kernel: $(uname -srm)"
	echo "commit: $(git -C .. rev-parse HEAD) ($(git -C .. status --porcelain | wc -l) paths modified or untracked)"
	echo "library sources (sha256 of the module's .go files outside bench/): $(cd .. && git ls-files -co --exclude-standard '*.go' | grep -v '^bench/' | sort | xargs cat | sha256sum | cut -c1-16)"
} | tee results/machine.txt

# Build once, so that every figure comes from the same code even if the
# sources change while this runs.
go test -c -o results/bench.test .
go build -o results/benchfile.bin ./cmd/benchfile
trap 'rm -f results/bench.test results/benchfile.bin' EXIT

bench() {
	# go test's flags, spelt for the test binary.
	local args=()
	for a in "$@"; do
		case $a in
		-bench | -benchtime | -count) args+=("-test.${a#-}") ;;
		*) args+=("$a") ;;
		esac
	done
	results/bench.test -test.run '^$' -test.benchmem -test.timeout 60m "${args[@]}"
}

bench -bench '^BenchmarkStream$' -benchtime 0.2s -count 3 | tee results/stream.txt
bench -bench '^BenchmarkWhole$' -benchtime 0.3s -count 3 | tee results/whole.txt
bench -bench '^BenchmarkStream$/^file=(createFile|modifyFile)-(100k|1m)$/^chunk=(16|1024)$/^impl=(argstream|handrolled)-' \
	-benchtime 0.3s -count 6 | tee results/targets.txt
bench -bench '^Benchmark(Linearity|SteadyState|IdleStreams)$' -benchtime 0.3s | tee results/design.txt
bench -bench '^BenchmarkScaling$' -benchtime 0.3s -count 3 | tee results/scaling.txt
# naive-jsontext at 256 KiB and 1 MB, over the default -maxwork: once (about
# 80 s). reparse stays capped at 64 KiB (at 256 KiB one run takes minutes).
bench -bench '^BenchmarkScaling$/^size=(256k|1m)$/^impl=naive-jsontext$' -benchtime 1x -maxwork 4e10 | tee -a results/scaling.txt

# The command-line figure, for both tokenizers.
for impl in jsontext handrolled; do
	for chunk in 16 1024; do
		results/benchfile.bin --impl $impl --chunk $chunk \
			testdata/{createFile,modifyFile,structured}-{100k,1m}.json.gz
	done
done | tee results/cli.txt

# The JavaScript peers (js/README.md), when Node and their packages are
# installed (cd js && npm ci): about a minute.
if command -v node >/dev/null && [ -d js/node_modules ]; then
	for chunk in 16 1024; do
		node js/peers.mjs --chunk $chunk testdata/{createFile,modifyFile}-{100k,1m}.json.gz
	done | tee results/js.txt
fi

# End to end: provider streams to aggregated arguments, argstream against the
# official SDKs (about 3 minutes), and the command line on the same synthetic
# streams (written by cmd/wirestreams).
bench -bench '^BenchmarkWire$' -benchtime 0.2s -count 6 | tee results/wire.txt
bench -bench '^BenchmarkWireParts$' -benchtime 0.2s -count 5 | tee results/wireparts.txt
go run ./cmd/wirestreams -sizes 1k,100k results/streams >/dev/null
for wire in anthropic openai-chat openai-responses; do
	# An adapter that fails (exit 1) is reported and the others still run.
	results/benchfile.bin --wire $wire results/streams/$wire/*.sse.gz || echo "benchfile --wire $wire: exit $?" >&2
done | tee results/wire-cli.txt

if command -v benchstat >/dev/null; then
	benchstat -col /impl results/targets.txt > results/targets-benchstat.txt
	benchstat -col /impl results/wire.txt > results/wire-benchstat.txt
fi
