package policy

import "fmt"

// PathStyle says how the tool that receives a path parameter resolves it, so
// that a prefix compares the path the tool will open. Resolution is lexical:
// nothing is looked up in a working directory, the file system or symbolic
// links. Under both styles a path whose resolution is uncertain or depends
// on the platform is suspect (listed below): it may name any file, so it
// never satisfies a permissive rule and always satisfies a restrictive one,
// and a call with one never runs unattended ([Verdict.SuspectPath]).
//
// [POSIX] (the zero PathStyle, the default) resolves as [path.Clean] does: only
// "/" separates, and "\" is an ordinary byte of a component. Empty and "."
// components are dropped; ".." removes the component before it, climbs out
// (a leading ".." of a relative path) when there is none, and stays at the
// root of an absolute path ("/.." is "/"). A path is absolute when it starts
// with "/". Names compare byte for byte (case-sensitive). A POSIX path is
// suspect when the Windows reading of the same string would resolve it
// differently: it contains a "\"; a component contains ":" (a drive or an
// alternate data stream); a component other than "." and ".." ends with "."
// or a space; a component is a reserved device name (see Windows); or it
// starts with "//" (a UNC path on Windows, implementation-defined in POSIX).
//
// Windows resolves as the Win32 path functions do: "/" and "\" both
// separate. The root is one of:
//
//   - drive-absolute, "C:\x": the drive letter (an ASCII letter) is part of
//     the root, written "c:/";
//   - drive-relative, "C:x": relative to the current directory of drive C,
//     written "c:x", where a leading ".." climbs out as in a relative path;
//     always suspect;
//   - rooted, "\x": absolute on the current drive, written "/x", so never
//     under a prefix with a drive letter, nor the reverse;
//   - UNC, "\\server\share\x": server and share are part of the root,
//     written "//server/share/" ("//server//" when the share is missing);
//     suspect if either is missing, "." or "..";
//   - device, "\\?\x" and "\\.\x" (with either separator): written "//?/"
//     or "//./", followed by "c:/" when a drive follows; always suspect;
//   - none: a relative path.
//
// ".." never climbs above the root (the share, for UNC). Each component
// then has an alternate data stream suffix removed (".env::$DATA" and
// ".env:s" are ".env") and its trailing dots and spaces stripped (".env."
// and ".env " are ".env"); a component that this would empty ("...", ":x")
// is kept as written. Names compare under Unicode simple case folding (as
// [strings.EqualFold] does), and the resolved form is written folded to lower
// case. A Windows path is suspect when it is a device or drive-relative
// path, or a UNC path whose server or share is missing, "." or ".."; when a
// component, the server or the share contains ":" (a stream), ends with "."
// or a space, contains a character Windows forbids in names (* ? < > " |),
// contains "~" and a digit (it may be the 8.3 short name of another file,
// as ENV~1 may be .env), or is a reserved device name; or when the path
// contains bytes that are not UTF-8, or a non-ASCII letter that case
// mapping or folding turns into an ASCII one (ı, İ, ſ, the Kelvin sign:
// NTFS compares names with its own upcase table, which may disagree with
// Unicode folding on them).
//
// The reserved device names are CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0
// to COM9, LPT0 to LPT9, COM¹ COM² COM³ and LPT¹ LPT² LPT³, in any case,
// alone or followed by an extension or spaces ("nul.txt", "NUL .x"): Win32
// opens the device whatever the directory.
//
// Under both styles, a path is suspect when a tool, a shell or a Windows
// code page may read it as another path: it contains a C0 control
// character (U+0000 to U+001F: a C tool stops at NUL); a "$" or a "%"
// (variables such as $HOME, ${HOME} and %USERPROFILE%, URL escapes such as
// %2e); a "~" starting a component (~/.ssh and ~root are home directories;
// a shell expands only a leading one, but a tool may pass a component
// on); or a non-ASCII character that a Windows best-fit code page or NFKC
// maps to ASCII punctuation, or that reads as a separator: the fullwidth
// forms U+FF01 to U+FF0F, U+FF1A to U+FF20, U+FF3B to U+FF40 and U+FF5B to
// U+FF5E (＼ ／ ． ： ～ ＄ ％), the small forms U+FE50 to U+FE6B (﹨ ﹒ ﹕),
// the vertical forms U+FE10 to U+FE19, ¥ and ₩ (a backslash in the
// Japanese and Korean code pages), ⁄ ∕ ⧸ ⧵ ⧹ ∖, the dot leaders ․ and ‥,
// the ellipsis …, ٪ and ∗. Fullwidth letters and digits, which become a
// name's ASCII letters, and characters that only look like a dot, such as
// 。 (U+3002, which no code page maps to "."), are parts of names.
type PathStyle uint8

// Path styles.
const (
	POSIX   PathStyle = iota // "/" separates; case-sensitive (the default)
	Windows                  // "/" and "\" separate; drives, UNC; case-insensitive
)

var pathStyleNames = [...]string{POSIX: "posix", Windows: "windows"}

// ParsePathStyle returns the [PathStyle] named s: "posix" or "windows".
func ParsePathStyle(s string) (PathStyle, error) {
	for st, name := range pathStyleNames {
		if name == s {
			return PathStyle(st), nil
		}
	}
	return 0, fmt.Errorf("unknown path style %q (want posix or windows)", s)
}

// String returns the style's name as [ParsePathStyle] reads it.
func (s PathStyle) String() string {
	if s.valid() {
		return pathStyleNames[s]
	}
	return fmt.Sprintf("PathStyle(%d)", uint8(s))
}

// valid reports whether s is [POSIX] or [Windows].
func (s PathStyle) valid() bool { return int(s) < len(pathStyleNames) }

// MarshalText returns the style's name.
func (s PathStyle) MarshalText() ([]byte, error) {
	if !s.valid() {
		return nil, fmt.Errorf("policy: cannot marshal %v", s)
	}
	return []byte(pathStyleNames[s]), nil
}

// UnmarshalText sets s to the style named by text (see [ParsePathStyle]).
func (s *PathStyle) UnmarshalText(text []byte) error {
	st, err := ParsePathStyle(string(text))
	if err != nil {
		return err
	}
	*s = st
	return nil
}
