// peers.mjs: throughput of JavaScript incremental JSON parsers on argstream's
// benchmark documents, doing the job argstream's Go pipeline does: a fresh parser
// per document, the document fed in chunks of N bytes, the parsed data made
// available after every chunk, the complete value at the end.
//
// Usage: node peers.mjs --chunk N [--runs R] [--max-seconds S] [--min-ms M]
//                       [--warmup-ms W] [--parsers LIST] [--no-isolate] FILE...
//
//   --chunk N        chunk size in bytes (UTF-8) or UTF-16 code units (see below);
//                    0 means the whole document in one chunk
//   --runs R         timed runs per file and parser (default 5); the median is printed
//   --max-seconds S  skip a parser/file/chunk whose first run takes longer (default 60);
//                    that run is abandoned as soon as the limit passes
//   --min-ms M       a run shorter than M milliseconds (default 100) is too short to
//                    time well: see "Runs" below
//   --warmup-ms W    untimed runs until W ms (default 500) have passed since the
//                    first run started: see "Runs" below
//   --parsers LIST   comma-separated subset of: jsonriver, streamparser,
//                    streamparser-partial, JSON.parse-whole (default: all)
//   --no-isolate     measure everything in this process; by default each file and
//                    parser is measured in a fresh child process (same node flags),
//                    since V8's JIT state left by one parser or document changed
//                    another's result by up to 4x in trials
//   FILE             a gzipped JSON document, e.g. ../testdata/createFile-100k.json.gz
//
// One JSON line per file and parser on stdout:
//   {"file":"createFile-100k.json","bytes":110599,"chunk":16,
//    "parser":"jsonriver@1.1.1","mb_s":12.3,"runs":5,"reps":1}
// mb_s is the median over the runs of (UTF-8 document bytes * reps / 1e6) / seconds.
//
// Runs. The first run parses the document once (a fresh parser); its final value
// is checked and its time compared with --max-seconds. Then reps, the number of
// documents parsed in a row per run (a fresh parser for each, timed as a whole),
// grows (at least doubling, from the time per document so far) until a run takes
// --min-ms. Then untimed runs go on until --warmup-ms have passed since the first
// run started, so that V8 has compiled the hot code (without it, the result of a
// fast parser on a small document rose by up to 1.5x over its first runs). Then
// come the R timed runs. A first run of one document that already took --warmup-ms
// and --min-ms (big documents at small chunks) counts as the first timed run.
//
// The parsers, each fed the input in the form its streaming API takes:
//
//   jsonriver@V  parse(asyncIterable<string>) yields progressively more complete
//       values. Its input is text: the document is decoded from UTF-8 once, outside
//       the timed region, and the string is cut every N UTF-16 code units; a cut
//       that would fall between the two halves of a surrogate pair is moved one
//       code unit earlier (one later if that would leave the chunk empty, N = 1),
//       so no chunk ends with a lone high surrogate. The decoding is not timed,
//       whereas @streamparser/json decodes UTF-8 inside its timed runs. Every
//       yielded value is received by the consuming for-await loop.
//   @streamparser/json@V  JSONParser.write(Uint8Array) with the default options:
//       onValue is called with every value (at every depth) as it completes, the
//       top-level one last. Its tokenizer works on UTF-8 bytes (it encodes strings
//       to bytes itself), so it is given byte chunks: views (subarray) of the
//       document cut every N bytes, possibly inside a UTF-8 sequence.
//   @streamparser/json@V+partial  the same with { emitPartialTokens: true,
//       emitPartialValues: true }: onValue is also called with unfinished values
//       (partial strings included) after every chunk, which is closer to what
//       argstream and jsonriver hand out.
//   JSON.parse-whole  JSON.parse of the whole (already decoded) string once per
//       run: a reference, not a streaming parser.
//
// The chunks are cut before the timed region (string slices or subarray views), so
// a run times the parser and the feeding loop only. The final value of the first
// run is compared with JSON.parse of the whole document (util.isDeepStrictEqual)
// after that run's clock has stopped. With `node --expose-gc`, a GC is forced
// before every run. With PEERS_DEBUG=1 in the environment, the seconds of each
// timed run go to stderr.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { parse as jsonriverParse } from 'jsonriver';
import { JSONParser } from '@streamparser/json';

function pkgVersion(name) {
  const url = new URL(`./node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')).version;
}

function usage(msg) {
  if (msg) process.stderr.write(`peers.mjs: ${msg}\n`);
  process.stderr.write(
    'usage: node peers.mjs --chunk N [--runs R] [--max-seconds S] [--min-ms M]\n' +
    '                      [--warmup-ms W] [--parsers LIST] [--no-isolate] FILE...\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {
    chunk: undefined, runs: 5, maxSeconds: 60, minMs: 100, warmupMs: 500,
    parsers: undefined, isolate: true, files: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    const int = (s, min) => {
      if (!/^\d+$/.test(s) || Number(s) < min) usage(`${a}: want an integer >= ${min}, got ${s}`);
      return Number(s);
    };
    switch (a) {
      case '--chunk': opts.chunk = int(value(), 0); break;
      case '--runs': opts.runs = int(value(), 1); break;
      case '--max-seconds': {
        const s = value();
        const n = Number(s);
        if (!(n > 0)) usage(`--max-seconds: want a positive number, got ${s}`);
        opts.maxSeconds = n;
        break;
      }
      case '--min-ms': opts.minMs = int(value(), 0); break;
      case '--warmup-ms': opts.warmupMs = int(value(), 0); break;
      case '--no-isolate': opts.isolate = false; break;
      case '--parsers': opts.parsers = value().split(',').filter(Boolean); break;
      case '-h': case '--help': usage(); break;
      default:
        if (a.startsWith('-')) usage(`unknown flag ${a}`);
        opts.files.push(a);
    }
  }
  if (opts.chunk === undefined) usage('--chunk is required');
  if (opts.files.length === 0) usage('no FILE given');
  return opts;
}

// Thrown inside a run when the deadline passes; the run is then abandoned.
class Deadline extends Error {
  constructor(at, of) {
    super(`at ${at} of ${of}`);
    this.at = at;
    this.of = of;
  }
}

// How often (in chunks) a run looks at the clock: rarely enough to cost nothing.
const CLOCK_EVERY = 256;

// Byte chunks: views of the document, every n bytes (n = 0: the whole).
function byteChunks(bytes, n) {
  if (n === 0 || n >= bytes.length) return [bytes];
  const out = [];
  for (let i = 0; i < bytes.length; i += n) out.push(bytes.subarray(i, i + n));
  return out;
}

// String chunks: every n UTF-16 code units (n = 0: the whole), never splitting a
// surrogate pair (see the header).
function stringChunks(text, n) {
  if (n === 0 || n >= text.length) return [text];
  const out = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + n, text.length);
    if (end < text.length) {
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

// A minimal async iterable over prepared chunks: cheaper than an async generator,
// so the feeding costs jsonriver as little as its API allows.
function asyncChunks(chunks, deadline) {
  let i = 0;
  return {
    [Symbol.asyncIterator]() { return this; },
    next() {
      if (i >= chunks.length) return Promise.resolve({ done: true, value: undefined });
      if (i % CLOCK_EVERY === 0 && performance.now() > deadline) {
        return Promise.reject(new Deadline(`chunk ${i}`, chunks.length));
      }
      return Promise.resolve({ done: false, value: chunks[i++] });
    },
    return() { i = chunks.length; return Promise.resolve({ done: true, value: undefined }); },
  };
}

// Each parser: prepare(doc, chunk) -> state, outside the clock; run(state, deadline)
// -> final value (async allowed), timed.
function makeParsers() {
  const riverV = pkgVersion('jsonriver');
  const spV = pkgVersion('@streamparser/json');

  const streamparser = (opts) => ({
    prepare: (doc, n) => byteChunks(doc.bytes, n),
    run(chunks, deadline) {
      const p = new JSONParser(opts);
      let final;
      let done = false;
      p.onValue = (info) => {
        // Every value is handed here; keep the top-level one once complete.
        if (info.stack.length === 0 && !info.partial) {
          final = info.value;
          done = true;
        }
      };
      for (let i = 0; i < chunks.length; i++) {
        if (i % CLOCK_EVERY === 0 && performance.now() > deadline) {
          throw new Deadline(`chunk ${i}`, chunks.length);
        }
        p.write(chunks[i]);
      }
      // The parser ends itself after the top-level value (no separator set), and
      // end() on an ended parser throws; end() is needed only if it did not.
      if (!p.isEnded) p.end();
      if (!done) throw new Error('no top-level value emitted');
      return final;
    },
  });

  return {
    jsonriver: {
      name: `jsonriver@${riverV}`,
      isAsync: true,
      prepare: (doc, n) => stringChunks(doc.text, n),
      async run(chunks, deadline) {
        let last;
        for await (const v of jsonriverParse(asyncChunks(chunks, deadline))) {
          last = v; // the progressively more complete value after this chunk
        }
        return last;
      },
    },
    streamparser: { name: `@streamparser/json@${spV}`, ...streamparser({}) },
    'streamparser-partial': {
      name: `@streamparser/json@${spV}+partial`,
      ...streamparser({ emitPartialTokens: true, emitPartialValues: true }),
    },
    'JSON.parse-whole': {
      name: 'JSON.parse-whole',
      prepare: (doc) => doc.text,
      run: (text) => JSON.parse(text),
    },
  };
}

// Seconds to parse the document reps times in a row, a fresh parser each time.
async function timeReps(p, state, reps) {
  globalThis.gc?.();
  const t = performance.now();
  if (p.isAsync) {
    for (let i = 0; i < reps; i++) await p.run(state, Infinity);
  } else {
    for (let i = 0; i < reps; i++) p.run(state, Infinity);
  }
  return (performance.now() - t) / 1000;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const round = (x) => Math.round(x * 1000) / 1000;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const all = makeParsers();
  const keys = opts.parsers ?? Object.keys(all);
  for (const k of keys) {
    if (!(k in all)) usage(`unknown parser ${k} (have ${Object.keys(all).join(', ')})`);
  }

  if (opts.isolate && opts.files.length * keys.length > 1) {
    // One child per file and parser; its line is passed on as it is.
    const script = fileURLToPath(import.meta.url);
    for (const file of opts.files) {
      for (const k of keys) {
        const args = [...process.execArgv, script, '--no-isolate', '--chunk', String(opts.chunk),
          '--runs', String(opts.runs), '--max-seconds', String(opts.maxSeconds),
          '--min-ms', String(opts.minMs), '--warmup-ms', String(opts.warmupMs),
          '--parsers', k, file];
        const r = spawnSync(process.execPath, args, {
          stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 24,
        });
        process.stdout.write(r.stdout ?? '');
        if (r.status !== 0) {
          process.exitCode = 1;
          if (!r.stdout) {
            // The child died before printing its line (a crash, out of memory).
            const line = {
              file: basename(file).replace(/\.gz$/, ''), chunk: opts.chunk, parser: k,
              error: `child exited with ${r.error ?? r.signal ?? `status ${r.status}`}`,
            };
            process.stdout.write(JSON.stringify(line) + '\n');
          }
        }
      }
    }
    return;
  }

  let failed = false;
  for (const file of opts.files) {
    const bytes = new Uint8Array(gunzipSync(readFileSync(file)));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const want = JSON.parse(text);
    const doc = { bytes, text };
    const name = basename(file).replace(/\.gz$/, '');

    for (const k of keys) {
      const p = all[k];
      const line = { file: name, bytes: bytes.length, chunk: opts.chunk, parser: p.name };
      const state = p.prepare(doc, opts.chunk);
      const secs = [];
      let reps = 1;
      try {
        // The first run: checked, held to --max-seconds, and the calibration.
        globalThis.gc?.();
        const t0 = performance.now();
        const got = await p.run(state, t0 + opts.maxSeconds * 1000);
        const first = (performance.now() - t0) / 1000;
        if (!isDeepStrictEqual(got, want)) {
          throw new Error('final value differs from JSON.parse of the whole document');
        }
        if (first > opts.maxSeconds) throw new Deadline('end', 'document');
        // Calibration: grow reps until one run of reps documents takes --min-ms.
        let took = first;
        while (took * 1000 < opts.minMs) {
          const perDoc = Math.max(took / reps, 1e-7);
          reps = Math.max(reps * 2, Math.ceil((opts.minMs / 1000 / perDoc) * 1.2));
          took = await timeReps(p, state, reps);
        }
        if (reps === 1 && first * 1000 >= opts.warmupMs) {
          secs.push(first); // long enough that the JIT's warm-up is lost in it
        } else {
          while (performance.now() - t0 < opts.warmupMs) await timeReps(p, state, reps);
        }
        while (secs.length < opts.runs) secs.push(await timeReps(p, state, reps));
        if (process.env.PEERS_DEBUG) {
          const list = secs.map((x) => x.toFixed(4)).join(',');
          process.stderr.write(`${name} ${p.name} reps=${reps} secs=${list}\n`);
        }
        line.mb_s = round(bytes.length * reps / 1e6 / median(secs));
        line.runs = opts.runs;
        line.reps = reps;
      } catch (e) {
        if (!(e instanceof Deadline)) {
          failed = true;
          line.error = String(e?.message ?? e);
          line.runs = secs.length;
        } else {
          line.skipped = true;
          line.reason = `first run exceeded --max-seconds ${opts.maxSeconds}` +
            ` (abandoned ${e.at} of ${e.of})`;
          line.runs = 0;
        }
      }
      process.stdout.write(JSON.stringify(line) + '\n');
    }
  }
  if (failed) process.exitCode = 1;
}

await main();
