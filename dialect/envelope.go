package dialect

// This file is the envelope of Hermes' calls and of the elements of
// Mistral's JSON array, {"name": "F", "arguments": {...}}: its states,
// and stepEnv, the step marked.go's loop takes in one, a byte at a time
// (the arguments themselves go through jsonScan, as any JSON family's).

import (
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/internal/jsonwire"
)

// Envelope states (Hermes' object, an element of Mistral's array).
const (
	envOpen      = iota // before '{'
	envKey              // before a member's name
	envKeyStr           // in a member's name
	envColon            // before ':'
	envValue            // before a member's value
	envNameStr          // in "name"'s string
	envIDStr            // in "id"'s string (Mistral)
	envNext             // after a member: ',' or '}'
	envAfter            // Hermes: after '}', before </tool_call>
	envArrayNext        // Mistral: after an element: ',' or ']'
)

// Envelope members, as bits of r.envSeen.
const (
	memName = 1 << iota
	memArgs
	memID
)

// stepEnv reads p[i] in an envelope: Hermes' {"name": "F", "arguments":
// {...}} or an element of Mistral's array. The name must come before the
// arguments: the call starts when they begin, so that its policy sees all
// of them.
func (r *Reader) stepEnv(p []byte, i int) error {
	b := p[i]
	space := jsonwire.IsSpace(b)
	switch r.env {
	case envOpen:
		switch {
		case space:
		case b == '{':
			r.env, r.envSeen, r.envName = envKey, 0, r.envName[:0]
		default:
			return r.envErr(p, i, "want the call's JSON object")
		}
	case envKey:
		switch {
		case space:
		case b == '"':
			r.env, r.envKeyBuf = envKeyStr, r.envKeyBuf[:0]
		default:
			return r.envErr(p, i, "want a member name of the call's object")
		}
	case envKeyStr:
		if b != '"' {
			if len(r.envKeyBuf) >= len("arguments") || !isRoleByte(b) {
				return r.envErr(p, i, "a member of the call's object other than \"name\" and \"arguments\"")
			}
			r.envKeyBuf = append(r.envKeyBuf, b)
			return nil
		}
		var bit uint8
		switch string(r.envKeyBuf) {
		case "name":
			bit = memName
		case "arguments":
			bit = memArgs
		case "id":
			if r.envArray {
				bit = memID
			}
		}
		switch {
		case bit == 0:
			return r.envErr(p, i, "a member of the call's object other than \"name\" and \"arguments\": "+quoteHead(r.envKeyBuf))
		case r.envSeen&bit != 0:
			return r.envErr(p, i, "the member "+quoteHead(r.envKeyBuf)+" twice in the call's object")
		}
		r.envSeen |= bit
		r.envKeyBit = bit
		r.env = envColon
	case envColon:
		switch {
		case space:
		case b == ':':
			r.env = envValue
		default:
			return r.envErr(p, i, "want ':' after a member name")
		}
	case envValue:
		switch {
		case space:
		case r.envKeyBit == memArgs && b == '{':
			var name []byte
			if r.envSeen&memName != 0 {
				name = r.envName
			}
			if err := r.startCall(name, nil); err != nil { // unnamed if "name" comes after
				return err
			}
			r.mode, r.untilEnd = mBody, true // b is read again, as the arguments'
		case r.envKeyBit != memArgs && b == '"':
			r.env, r.envStr = envNameStr, r.envStr[:0]
		case r.envKeyBit == memArgs:
			return r.envErr(p, i, "\"arguments\" that are not a JSON object")
		default:
			return r.envErr(p, i, "want a string")
		}
	case envNameStr:
		if b != '"' {
			if len(r.envStr) >= MaxName || charClass[b]&dotted == 0 {
				return r.envErr(p, i, "a tool name or id that is not one (1 to 128 of [A-Za-z0-9_.-])")
			}
			r.envStr = append(r.envStr, b)
			return nil
		}
		if r.envKeyBit == memName {
			if len(r.envStr) == 0 {
				return r.envErr(p, i, "an empty tool name")
			}
			r.envName = append(r.envName[:0], r.envStr...)
			if r.envSeen&memArgs != 0 {
				// The name after the arguments: the call has it late,
				// and a policy that applies to it did not see them
				// (toolcall.ErrLateName).
				if err := r.calls.Start(fragment.Call{Index: r.cur(), Name: r.intern(r.envName)}, nil); err != nil {
					return err
				}
			}
		} else if err := r.setID(); err != nil {
			return err
		}
		r.env = envNext
	case envNext:
		switch {
		case space:
		case b == ',':
			r.env = envKey
		case b == '}':
			if r.envSeen&(memArgs|memName) != memArgs|memName {
				return r.envErr(p, i, "a call's object without \"name\" or \"arguments\"")
			}
			if r.envArray {
				r.env = envArrayNext
				return r.endCall()
			}
			r.env = envAfter
		default:
			return r.envErr(p, i, "want ',' or '}' in the call's object")
		}
	case envAfter:
		switch {
		case space:
		case b == toolCallEnd[0]:
			r.mark(mEnv, r.fam.closerSet) // Hermes: </tool_call>
			r.hold = append(r.hold, b)
			r.lm.step(b)
		default:
			return r.envErr(p, i, "want "+toolCallEnd+" after the call's object")
		}
	case envArrayNext:
		switch {
		case space:
		case b == ',':
			r.env = envOpen
		case b == ']':
			r.mode = mProse
		default:
			return r.envErr(p, i, "want ',' or ']' after a call in the array")
		}
	}
	return nil
}

// envErr handles an envelope that is not one. A Hermes call is refused
// alone (started without a name if it had not started) and read to its
// </tool_call>, as a Qwen call that names no tool; in Mistral's array,
// which has no closing marker of its own, the text's reading ends there.
func (r *Reader) envErr(p []byte, i int, detail string) error {
	if r.envArray {
		return r.frameErr(p, i, detail)
	}
	if r.envSeen&memArgs == 0 {
		if err := r.startCall(nil, nil); err != nil {
			return err
		}
	}
	if err := r.calls.Refuse(r.cur(), r.syntaxErr(p, i, detail)); err != nil {
		return err
	}
	r.mode, r.m = mTags, 0 // the byte is read again, as the refused call's
	return nil
}

// setID gives the call its id, from Mistral's "id" member: to the call
// open if its arguments came first, else to the call when it starts.
func (r *Reader) setID() error {
	if r.envSeen&memArgs != 0 {
		return r.calls.Start(fragment.Call{Index: r.cur(), Name: r.intern(r.envName), ID: r.intern(r.envStr)}, nil)
	}
	r.envID = append(r.envID[:0], r.envStr...)
	return nil
}

// endValue handles the end of a call's JSON arguments that end with
// themselves: Mistral's (the call ends) and an envelope's (its members go
// on).
func (r *Reader) endValue() error {
	if r.fam.shape == shapeMistral && !r.envArray {
		return r.endCall()
	}
	r.mode, r.env = mEnv, envNext
	return nil
}
