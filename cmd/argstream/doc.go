// Command argstream runs argstream on tool-call arguments from a file or
// stdin, fed in chunks the way a provider streams them.
//
//	argstream fragments [--split N | --split random:SEED | --chunks CHUNKS.json] [--format rfd|jsonl] [FILE]
//	argstream fields [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream aggregate [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream policy --rules RULES.json [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream bench [--chunk N] [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//	argstream version
//
// fragments prints every fragment as it is produced, in RFD 043's notation
// (rfd, the default) or as JSON Lines (jsonl). aggregate prints the complete
// arguments as compact JSON. policy prints, as soon as it is known, the
// decision of the rules in RULES.json (see package policy) as one JSON line:
// {"mode":"ask","rule":1,"decided_at_byte":24,"total_bytes":10240}, where
// total_bytes, the input's length, is there only when it is known before
// the input is read (a regular file, or --chunks) and left out for a pipe;
// it exits 2 for invalid rules. bench measures the full pipeline against
// whole-document jsontext tokenization of the same bytes in the same process
// and prints one JSON line per file (see bench/README.md): ratio for a new
// pipeline per document, reused_ratio for one kept with Reset; FILE may be
// gzipped. version prints the module version ("(devel)" when built in a
// checkout) and the Go version.
//
// fields prints the events of each top-level argument (see package fields)
// as they are produced, one JSON line each: {"field":"start","key":"path"},
// then {"field":"delta","key":"path","text":"/tm"} for each piece of the
// value's text (the decoded string; for any other value its compact JSON,
// and the start line says "json":true), then {"field":"end","key":"path"}
// once the value is complete. Arguments that are not an object are invalid
// input.
//
// Input: FILE, or stdin when FILE is "-" or absent. The input is read as it
// arrives: what each read returns is fed at once, and the output it produces
// (fragments, a decision line) is written before the next read waits, so
// that it is visible while the producer is still writing; invalid input
// ends the command without waiting for the rest. Without --split each read
// is one chunk (a regular file is read whole, in one read); --split N feeds
// N-byte chunks, the bytes re-cut as they arrive, a chunk waiting for its
// last bytes; --split random:SEED feeds chunks of random length 0 to 64
// drawn from SEED; with --split, the chunks are the same however the bytes
// arrive. --chunks reads a JSON array of strings and feeds them in order,
// such as a provider's recorded deltas. bench reads each FILE whole before
// measuring it.
//
// Flags may come before or after FILE; after "--" every argument is FILE.
// -h or --help after a command, or "argstream help COMMAND", prints its
// usage and flags.
//
// Messages are one line each on stderr: "argstream: FILE: what" about an
// input, FILE being the name given or "stdin" (for invalid arguments, what
// says what is wrong and where: the byte offset and the JSON pointer), and
// "argstream: what" about the command line.
//
// Exit status: 0 on success (--help and version included); 1 on invalid
// input, with the error on stderr after everything already printed; 2 on a
// usage error, invalid rules, or a file that cannot be read or written.
package main
