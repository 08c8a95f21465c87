package bench

// ClosePartial appends to dst a JSON text for the prefix text of a JSON
// document: the longest part of text that can stand as JSON, with its open
// strings, arrays and objects closed and a started literal completed. It
// follows the Vercel AI SDK's fixJson, scanner quirks included: an
// unfinished escape, number sign, exponent or object key is cut off, and a
// member whose value has not started is dropped with its key. It scans text
// once; the caller then parses the result. Invalid JSON is not detected:
// the parser that follows does that.
func ClosePartial(dst, text []byte) []byte {
	f := fixer{stack: []fixState{fxRoot}, last: -1}
	for i, c := range text {
		f.step(c, i, text)
	}
	dst = append(dst, text[:f.last+1]...)
	for k := len(f.stack) - 1; k >= 0; k-- {
		switch f.stack[k] {
		case fxString:
			dst = append(dst, '"')
		case fxObjStart, fxObjKey, fxObjAfterKey, fxObjBeforeValue, fxObjAfterValue, fxObjAfterComma:
			dst = append(dst, '}')
		case fxArrStart, fxArrAfterValue, fxArrAfterComma:
			dst = append(dst, ']')
		case fxLiteral:
			partial := text[f.litStart:]
			for _, lit := range [...]string{"true", "false", "null"} {
				if hasPrefix(lit, partial) {
					dst = append(dst, lit[len(partial):]...)
					break
				}
			}
		}
	}
	return dst
}

// fixState is where the scanner of ClosePartial is.
type fixState uint8

const (
	fxRoot           fixState = iota // before the top-level value
	fxFinish                         // after it
	fxString                         // in a string value
	fxEscape                         // after a backslash
	fxUnicode                        // in the hex digits of \u
	fxLiteral                        // in true, false or null
	fxNumber                         // in a number
	fxObjStart                       // after '{'
	fxObjKey                         // in a key
	fxObjAfterKey                    // after a key, before ':'
	fxObjBeforeValue                 // after ':'
	fxObjAfterValue                  // after a member's value
	fxObjAfterComma                  // after ',' in an object
	fxArrStart                       // after '['
	fxArrAfterValue                  // after an element
	fxArrAfterComma                  // after ',' in an array
)

type fixer struct {
	stack    []fixState
	last     int // index of the last byte that may be kept, -1 for none
	litStart int // where the literal being read starts
	hex      int // hex digits of \u read
}

func (f *fixer) top() fixState         { return f.stack[len(f.stack)-1] }
func (f *fixer) set(s fixState)        { f.stack[len(f.stack)-1] = s }
func (f *fixer) push(s fixState)       { f.stack = append(f.stack, s) }
func (f *fixer) pop()                  { f.stack = f.stack[:len(f.stack)-1] }
func (f *fixer) keep(i int)            { f.last = i }
func (f *fixer) open(s, then fixState) { f.set(then); f.push(s) }

// valueStart reads the first byte of a value; the level holding it goes to
// then.
func (f *fixer) valueStart(c byte, i int, then fixState) {
	switch {
	case c == '"':
		f.keep(i)
		f.open(fxString, then)
	case c == 't' || c == 'f' || c == 'n':
		f.keep(i)
		f.litStart = i
		f.open(fxLiteral, then)
	case c == '-':
		f.open(fxNumber, then) // a lone '-' cannot be kept
	case '0' <= c && c <= '9':
		f.keep(i)
		f.open(fxNumber, then)
	case c == '{':
		f.keep(i)
		f.open(fxObjStart, then)
	case c == '[':
		f.keep(i)
		f.open(fxArrStart, then)
	}
}

// afterValue reads the byte after a member or element.
func (f *fixer) afterValue(c byte, i int) {
	switch s := f.top(); {
	case s == fxObjAfterValue && c == ',':
		f.set(fxObjAfterComma)
	case s == fxObjAfterValue && c == '}', s == fxArrAfterValue && c == ']':
		f.keep(i)
		f.pop()
	case s == fxArrAfterValue && c == ',':
		f.set(fxArrAfterComma)
	}
}

func (f *fixer) step(c byte, i int, text []byte) {
	switch f.top() {
	case fxRoot:
		f.valueStart(c, i, fxFinish)
	case fxObjStart:
		switch c {
		case '"':
			f.set(fxObjKey)
		case '}':
			f.keep(i)
			f.pop()
		}
	case fxObjAfterComma:
		if c == '"' {
			f.set(fxObjKey)
		}
	case fxObjKey:
		if c == '"' {
			f.set(fxObjAfterKey)
		}
	case fxObjAfterKey:
		if c == ':' {
			f.set(fxObjBeforeValue)
		}
	case fxObjBeforeValue:
		f.valueStart(c, i, fxObjAfterValue)
	case fxObjAfterValue:
		f.afterValue(c, i)
	case fxString:
		switch c {
		case '"':
			f.keep(i)
			f.pop()
		case '\\':
			f.push(fxEscape)
		default:
			f.keep(i)
		}
	case fxEscape:
		f.pop()
		if c == 'u' {
			f.hex = 0
			f.push(fxUnicode)
		} else {
			f.keep(i)
		}
	case fxUnicode:
		if isHex(c) {
			if f.hex++; f.hex == 4 {
				f.pop()
				f.keep(i)
			}
		}
	case fxArrStart:
		if c == ']' {
			f.keep(i)
			f.pop()
			break
		}
		f.keep(i)
		f.valueStart(c, i, fxArrAfterValue)
	case fxArrAfterValue:
		switch c {
		case ',':
			f.set(fxArrAfterComma)
		case ']':
			f.keep(i)
			f.pop()
		default:
			f.keep(i)
		}
	case fxArrAfterComma:
		f.valueStart(c, i, fxArrAfterValue)
	case fxNumber:
		switch {
		case '0' <= c && c <= '9':
			f.keep(i)
		case c == 'e' || c == 'E' || c == '-' || c == '.':
			// not yet a number that can be kept
		case c == ',' || c == '}' || c == ']':
			f.pop()
			f.afterValue(c, i)
		default:
			f.pop()
		}
	case fxLiteral:
		partial := text[f.litStart : i+1]
		if hasPrefix("true", partial) || hasPrefix("false", partial) || hasPrefix("null", partial) {
			f.keep(i)
			break
		}
		f.pop()
		f.afterValue(c, i)
	}
}

// hasPrefix reports whether p is a prefix of s.
func hasPrefix(s string, p []byte) bool {
	return len(p) <= len(s) && s[:len(p)] == string(p)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
