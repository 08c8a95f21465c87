#!/usr/bin/env bash
# Prints the Markdown tables of README.md from results/ (see run.sh), or,
# with -w, writes them into README.md between their markers (-w SECTION...:
# only those sections).
set -euo pipefail
cd "$(dirname "$0")"
go build -o /tmp/benchtable.$$ ./cmd/benchtable
trap 'rm -f /tmp/benchtable.$$' EXIT
t() { /tmp/benchtable.$$ "$@"; }

tables() {
	echo "#### Throughput by chunk size: MB/s (ratio to whole-document jsontext)"
	echo
	echo "From results/stream.txt, the median of 3 runs. \`skipped\`: quadratic, over -maxwork."
	for chunk in 1 4 16 64 1024 whole; do
		echo
		echo "chunk=$chunk"
		echo
		t -bench Stream -where chunk=$chunk -rows file -cols impl -metric MB/s -paren ratio < results/stream.txt
	done
	echo
	echo "#### Every figure at 16-byte chunks, 100 KB workloads"
	echo
	echo "From results/stream.txt. allocs/op and B/op are per document, building the parser included."
	echo
	t -bench Stream -where 'chunk=16,file=(createFile|modifyFile|structured)-100k' -long file,impl -metrics MB/s,ns/chunk,allocs/op,B/op,ratio < results/stream.txt
	echo
	echo "#### The two pipelines at every chunk size, 1 MB workloads"
	echo
	echo "From results/stream.txt."
	echo
	t -bench Stream -where 'impl=.*-pipeline,file=(createFile|modifyFile|structured)-1m' -long file,chunk,impl -metrics MB/s,ns/chunk,allocs/op,B/op,ratio < results/stream.txt
	echo
	echo "#### Whole-document references: MB/s"
	echo
	echo "From results/whole.txt, the median of 3 runs."
	echo
	t -bench Whole -rows file -cols impl -metric MB/s < results/whole.txt
	echo
	echo "#### Linearity: MB/s on 1 MB and on 100 KB, interleaved"
	echo
	echo "From results/design.txt."
	echo
	t -bench Linearity -long file,chunk,impl -metrics MB/s-100k,MB/s-1m,ratio-1m/100k < results/design.txt
	echo
	echo "#### Steady state: allocations per chunk, 16-byte chunks"
	echo
	echo "From results/design.txt (chunk sizes 1 and 1024 are there too)."
	echo
	t -bench SteadyState -where chunk=16 -long file,impl,level -metrics allocs/chunk,B/chunk,MB/s < results/design.txt
	echo
	echo "#### Idle streams: live heap per open stream, 10,000 streams"
	echo
	echo "From results/design.txt."
	echo
	t -bench IdleStreams -long file,impl,sink -metrics B/stream < results/design.txt
	echo
	echo "#### argstream bench (the command line)"
	echo
	echo "From results/cli.txt: median of 5 runs of at least 200 ms each."
	echo
	echo '```'
	cat results/cli.txt
	echo '```'
}

scaling() {
	echo "ns/byte, createFile cut to each size, 16-byte chunks; from results/scaling.txt (median of 3; naive-jsontext at 256k and 1m: one run)."
	echo
	t -bench Scaling -rows impl -cols size -metric ns/byte < results/scaling.txt
}

wire() {
	echo "From results/wire.txt: the median of 6 runs. ns/delta: time on the wall; cpu-ns/delta: the process's CPU time,"
	echo "all threads (the SDKs' garbage collection included); vs-argstream: the contender's CPU time over argstream's,"
	echo "measured beside it."
	for wire in anthropic openai-chat openai-responses; do
		echo
		echo "wire=$wire"
		echo
		t -bench Wire -where wire=$wire -long stream,layout,impl -metrics ns/delta,cpu-ns/delta,vs-argstream,allocs/delta,B/delta < results/wire.txt
	done
	if [ -s results/wire-cli.txt ]; then
		echo
		echo "argstream bench --wire on the same synthetic streams (results/wire-cli.txt; median of 5 runs of at least 200 ms):"
		echo
		echo '```'
		cat results/wire-cli.txt
		echo '```'
	fi
}

wireparts() {
	echo "From results/wireparts.txt: the median of 5 runs. CPU ns per argument delta of each part alone, and in"
	echo "parentheses its CPU time over argstream's whole path on the same stream (BenchmarkWire's argstream), measured"
	echo "beside it; for sdk, that ratio is BenchmarkWire's vs-argstream."
	for wire in anthropic openai-chat openai-responses; do
		echo
		echo "wire=$wire"
		echo
		t -bench WireParts -where wire=$wire -rows stream -cols part -metric cpu-ns/delta -paren of-whole < results/wireparts.txt
	done
}

machine() {
	echo '```'
	cat results/machine.txt
	echo '```'
}

if [ "${1:-}" != -w ]; then
	machine
	echo
	tables
	echo
	scaling
	if [ -f results/wire.txt ]; then
		echo
		wire
	fi
	if [ -f results/wireparts.txt ]; then
		echo
		wireparts
	fi
	exit
fi

# splice NAME FUNCTION: replace the lines between <!-- NAME:begin --> and
# <!-- NAME:end --> in README.md with the function's output.
splice() {
	local out
	out=$($2)
	BODY="$out" awk -v name="$1" '
		$0 == "<!-- " name ":begin -->" { print; print ENVIRON["BODY"]; skip = 1; next }
		$0 == "<!-- " name ":end -->" { skip = 0 }
		!skip { print }
	' README.md > README.md.new
	mv README.md.new README.md
}
# -w alone splices every section; -w SECTION... only those (machine, tables,
# scaling, wire, wireparts).
shift
if [ $# -eq 0 ]; then
	set -- machine tables scaling
	if [ -f results/wire.txt ]; then
		set -- "$@" wire
	fi
	if [ -f results/wireparts.txt ]; then
		set -- "$@" wireparts
	fi
fi
for section in "$@"; do
	case $section in
	machine | tables | scaling | wire | wireparts) splice $section $section ;;
	*)
		echo "tables.sh: unknown section $section" >&2
		exit 2
		;;
	esac
done
