// Command argstream runs argstream on tool-call arguments from a file or
// stdin, fed in chunks the way a provider streams them.
//
//	argstream fragments [--split N | --split random:SEED | --chunks CHUNKS.json] [--format rfd|jsonl] [FILE]
//	argstream aggregate [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream policy --rules RULES.json [--split N | --split random:SEED | --chunks CHUNKS.json] [FILE]
//	argstream bench [--chunk N] [--impl jsontext|handrolled] [--runs N] [--time D] FILE...
//
// fragments prints every fragment as it is produced, in RFD 043's notation
// (rfd, the default) or as JSON Lines (jsonl). aggregate prints the complete
// arguments as compact JSON. policy prints, as soon as it is known, the
// decision of the rules in RULES.json (see package policy) as one JSON line:
// {"mode":"ask","rule":1,"decided_at_byte":24,"total_bytes":10240}; it exits
// 2 for invalid rules. bench measures the full pipeline against
// whole-document jsontext tokenization of the same bytes in the same process
// and prints one JSON line per file (see bench/README.md): ratio for a new
// pipeline per document, reused_ratio for one kept with Reset; FILE may be
// gzipped.
//
// Input: FILE, or stdin when FILE is "-" or absent. --split N feeds N-byte
// chunks (default: the whole input as one chunk); --split random:SEED feeds
// chunks of random length 0 to 64 drawn from SEED; --chunks reads a JSON array
// of strings and feeds them in order, such as a provider's recorded deltas.
//
// Exit status: 0 on success; 1 on invalid input, with the error (byte offset,
// JSON pointer) on stderr after everything already printed; 2 on a usage error.
package main
