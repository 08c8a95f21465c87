// Package policy decides what to do with a tool call from its arguments:
// ask the user, run it unattended, skip it, or open it for editing. It
// decides while the arguments stream, as soon as the bytes received
// determine the decision, and always with exactly the decision the complete
// arguments give (RFD D26, streaming evaluation of RFD D25's
// argument-conditional policies: docs/design.md, "Streaming policy
// evaluation").
//
// # Rules
//
// A policy is an ordered list of rules. A rule has at most one condition,
// an arg (an RFC 6901 JSON pointer into the arguments) with exactly one
// matcher, and a mode: ask, unattended, edit or skip. A rule without a
// condition is a catch-all. The first rule that matches decides; an
// implicit ask closes every list ([Decision.Rule] is then [ImplicitRule]). The
// rules file ([Parse]) reads:
//
//	{
//	  "run": [
//	    {"arg": "/patterns/paths", "pattern": "(^|/)\\.env($|\\.)", "mode": "skip"},
//	    {"arg": "/path", "prefix": "src/", "mode": "unattended"},
//	    {"mode": "ask"}
//	  ],
//	  "paths": ["/path", "/patterns/paths"]
//	}
//
// and "run": "ask" is shorthand for [{"mode": "ask"}]. "paths" (optional)
// declares the parameters whose values are file paths. [New] builds the same
// from Go values.
//
// # Pointers
//
// A pointer's first token names a top-level parameter; the arguments are a
// JSON object (arguments that are another JSON value have no parameters).
// Where the value met along a pointer is an array, the pointer means each
// element, at any depth: "/patterns/paths" visits patterns[*].paths[*], and
// "/path" on ["a", "b"] visits "a" and "b". So tokens are always object
// keys: "/patterns/0/paths" looks for a key "0" (New warns about such
// tokens), and the values a pointer resolves to are never arrays.
//
// # Quantifiers
//
// A rule's quantifier says how many of those values must match. The
// default follows the mode, so that one unexpected value is always enough
// to withhold permission:
//
//   - unattended (permissive) uses "all": every value matches, and there
//     is at least one. {"path": ["src/a", "/etc/passwd"]} does not pass a
//     "src/" prefix, and {"n": [[50], [500]]} does not pass "maximum": 100;
//   - ask, edit and skip (restrictive) use "any": one matching value is
//     enough, as a guard such as "skip if any path is .env" needs.
//
// A rule may say "quantifier": "all" or "any" ([Rule.Quantifier]); an
// unattended rule with "any" loads with a [Warning]. An arg that resolves to
// nothing does not match, under either quantifier.
//
// # Readings
//
// A tool may read a value otherwise than its JSON text says, so a value
// can have several readings, and a permissive rule holds only if it holds
// under every reading, a restrictive rule if it holds under any:
//
//   - a number is its exact decimal and the float64 nearest to it, which
//     is what Python, JavaScript and Go's float64 read: 99.99999999999999999
//     is 100 and 1e-400 is 0, so neither passes "exclusive_maximum": 100 or
//     "exclusive_minimum": 0 on an unattended rule, and both trigger a skip
//     rule with those bounds. (Bounds are compared exactly, and as float64
//     against the bound's own float64.) A number text longer than 800
//     bytes, which Go 1.26's [strconv.ParseFloat] misreads (1<800
//     zeros>e-800, exactly 1, reads as 0.1) where Go 1.27's does not, has
//     no reading a rule can rely on: it never satisfies an unattended
//     rule, and always satisfies a numeric matcher of the others.
//   - a path, on a parameter declared in "paths", is the text as written,
//     and the path a POSIX or a Windows tool resolves it to (see "Path
//     styles").
//
// # Matchers
//
//   - const (any JSON value but an array) matches an equal value, and enum
//     (a non-empty array of such values) one of its values. Equality is
//     JSON equality: same type; strings equal code point for code point;
//     numbers equal as exact decimals, so 1, 1.0 and 10e-1 are equal, and
//     9007199254740993 is not 9007199254740992 (no float64 rounding);
//     objects equal member by member in any order.
//   - pattern (a string) matches a string that contains a match of the
//     regular expression: an unanchored search, as in JSON Schema. Write ^
//     and $ to anchor it.
//   - prefix (a string) matches a string that starts with it, byte for
//     byte, or, on a parameter declared in "paths", a path under it (see
//     below).
//   - minimum, maximum, exclusive_minimum and exclusive_maximum (a JSON
//     number) match a number >=, <=, > or < it, compared exactly.
//
// Each matcher applies to one type. A value of another type does not match:
// a pattern or prefix never matches a number, and a bound never matches a
// string.
//
// # Numbers that arrive as strings
//
// Some providers send numbers as strings ("start_line": "1"). A bound only
// ever matches a JSON number: "1" satisfies neither "minimum": 0 nor
// "maximum": 10. This is the secure choice: a rule such as
// {"arg": "/count", "maximum": 10, "mode": "unattended"} cannot be passed by
// "count": "100000", nor by "count": "5", since the tool's own reading of a
// string is unknown; such calls fall through to later rules, and in the end
// to the implicit ask. Likewise const 1 does not match "1". To accept both
// forms on purpose, add a rule for the string form, such as
// {"arg": "/start_line", "pattern": "^[0-9]{1,3}$", "mode": "unattended"}.
//
// # Patterns
//
// Patterns are Go regular expressions (package [regexp], RE2 syntax), not
// ECMA-262 ones as JSON Schema specifies. Where they differ:
//
//   - no backreferences (\1) and no lookaround ((?=...), (?!...), (?<=...),
//     (?<!...)): RE2 matches in time linear in the value, so no argument
//     can make a pattern run for ever; such patterns are refused;
//   - \s is [\t\n\f\r ]: ECMA-262's also matches \v, U+00A0, U+FEFF and
//     the Unicode spaces and line terminators. \d, \w and \b are ASCII only
//     in both; use \p{...} classes for Unicode;
//   - . matches any character but \n (ECMA-262 also excludes \r, U+2028
//     and U+2029); matching is by code point, so a character outside the
//     BMP is one character, not two UTF-16 code units;
//   - the regular expression escapes \uFFFF, \u{...} and \cX do not
//     exist: write \x{FFFF}, or the character itself (a JSON escape such as
//     "\u00e9" in the rules file is decoded before the pattern is read);
//   - Go adds \A, \z, flags such as (?i) and (?s), POSIX classes
//     ([[:alpha:]]) and (?P<name>...); (?<name>...) works in both.
//
// # Path styles
//
// A prefix on a parameter declared in "paths" compares whole path
// components after resolving both the prefix and the value lexically, as
// the tool will: in POSIX style (the default) only "/" separates and a
// backslash is part of a name, as [path.Clean] reads it; in Windows style
// (WithPathStyle(Windows), "path_style": "windows" in the file) "/" and "\"
// separate, drives, UNC shares and trailing dots, spaces and stream
// suffixes are resolved as Win32 does, and names compare case-insensitively.
// "." and empty components are dropped and "x/.." is removed. Then:
//
//   - "src/" matches src/lib.rs, ./src/lib.rs and src/a/../lib.rs, and never
//     src-old/lib.rs, src (the directory itself) or src/../etc/passwd;
//   - "src" without the separator also matches src itself;
//   - a path that climbs out with ".." never matches a prefix it escapes:
//     src/../../etc never matches "src/" nor "", and ../x never matches
//     "." (only a prefix that climbs out the same way, such as "../x/",
//     matches it); in POSIX style src/a\b/../../x is x, outside "src/";
//   - an absolute path never matches a relative prefix, nor the reverse,
//     and in Windows style a drive, a share or the current drive's root
//     only matches a prefix with the same root.
//
// A value whose resolution is uncertain or depends on the platform is
// suspect ([PathStyle] has the list): in POSIX style, any backslash, ":",
// name ending in "." or a space, reserved device name (nul, con.txt) or
// leading "//"; in Windows style, device and drive-relative paths, streams,
// trailing dots and spaces, reserved names, wildcards and possible 8.3
// short names (ENV~1 may be .env); in both, what a tool, a shell or a
// Windows code page may read as another path: control characters, "$" and
// "%" anywhere ($HOME, %USERPROFILE%, %2e), "~" leading a component
// (~/.ssh, ~root), and non-ASCII lookalikes of separators, dots and such
// characters (＼, ¥, ∕, ．, ‥).
//
// Every matcher on such a parameter sees the path's readings (see
// "Readings"): const and enum compare resolved paths, a pattern is matched
// against the value as written and against its resolved form ("src/.env"
// for SRC\.ENV::$DATA in Windows style, lowercased). An unattended rule
// needs the value as written and its resolution in the tool's style to
// match, and the value not to be suspect in that style; an ask, edit or
// skip rule holds if the value as written, its POSIX resolution or its
// Windows resolution matches, whatever the style, or if the value is
// suspect in the tool's style, whatever the matcher: a suspect value may
// name any file. So no spelling escapes a guard such as "skip any .env",
// nor passes an unattended rule on its parameter. Resolution is
// lexical: nothing is resolved against a working directory, symbolic links
// or the file system.
//
// Beyond the rules on its parameter, a call any of whose declared path
// values is suspect never runs unattended, whichever rule decides
// [Unattended]: a catch-all {"mode": "unattended"}, which decides at offset
// 0, or a rule on another arg. The [Evaluator] follows the values of the
// parameters in "paths" to the end of the arguments, after deciding too,
// and [Verdict.SuspectPath] points at the first suspect one ("/path",
// "/patterns/1/paths/0"). The decision stays Unattended ([OnDecision] may
// have reported it long before), but [Verdict.Unattended] is false: the call
// needs the user's yes, as for ask. So a parameter in "paths" counts even
// if no rule names it, and a caller checks Verdict.Unattended, never the
// mode alone. (Evaluate and EvaluateArgs return the decision only.)
//
// # Checks
//
// New and Parse refuse, with an error that names the rule, the field and
// the reason: a malformed pointer; a missing or unknown mode; a matcher
// whose operand has the wrong type (a string bound, a numeric prefix, an
// array const, an empty enum, a pattern that does not compile), or a bound
// on a parameter declared in "paths"; a rule with two matchers, or a
// matcher but no arg; a rule that an earlier rule makes unreachable (any
// rule after a catch-all, a longer prefix after a shorter one on the same
// arg, a bound after a looser one, a const or enum whose values an earlier
// rule on the same arg all matches); and in the file, unknown or duplicate
// keys. A list without a final catch-all works, with the implicit ask, but
// gets a Warning, as do pointer tokens that look like array indexes. (A
// "paths" entry that no rule names is not unused: a suspect value there
// keeps the call from running unattended.)
//
// # Deciding
//
// [Policy.Evaluate] is the pure evaluator: given the complete top-level
// parameters known so far, and whether the arguments have ended, it
// returns the decision or waiting (the zero [Decision]). A rule whose
// parameter has not come blocks every rule after it: first match wins, so
// nothing later may decide before it is settled.
//
// [Policy.Evaluator] is the streaming evaluator, a [sink.Sink] for one call's
// fragments. A rule with the quantifier "any" matches the moment a value
// its arg resolves to is complete and matches, at any depth: the first
// matching element of an array is enough. A rule with "all" is eliminated
// by the first of its values that completes without matching, and matches
// when its top-level parameter is complete, every value having matched.
// A rule is eliminated when its top-level parameter's Done arrives without
// a match, or when the whole arguments end without the parameter. Between those, it blocks the rules after it, whether its
// parameter has not started or is still arriving. The decision, the rule
// and the offset at which it became known (OnDecision, DecidedAt) never
// change once set. The evaluator keeps only the values some rule's pointer
// can resolve to, and the string being completed on a parameter in
// "paths", so a megabyte of "content" that no rule names is not stored.
//
// [Edit] is decided early like the others, but acting on it needs the
// complete arguments ([Decision.NeedsCompleteArguments]). [Skip] lets the
// caller stop parsing at once: with [WithStopOnSkip], Push returns [ErrSkip] (a
// [sink.ErrStop]) and the stream stops.
//
// A decision is about arguments that end up valid. If the stream fails
// after deciding (truncated, malformed, a duplicate or confusable key
// later on, stopped), [Verdict.Executable] is false: the call must not run,
// whatever was decided. A decision is never permission to execute before
// Verdict().Executable() is true at the end of the arguments, nor to run
// without asking before Verdict().Unattended() is (see "Path styles" for
// the Unattended decisions it overrules): use an early decision to prompt,
// to prepare, or to cancel, not to start the call.
//
// # Concurrency
//
// A [Policy] is immutable and may be used from several goroutines; an
// Evaluator belongs to one stream and may not.
package policy
