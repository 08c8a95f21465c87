package guard

import (
	"fmt"
	"time"

	"github.com/argstream/argstream/dialect"
	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/policy"
	"github.com/argstream/argstream/schema"
	"github.com/argstream/argstream/wire"
	"github.com/argstream/argstream/wire/sse"
)

// Action is what the gateway did with a call.
type Action uint8

// The actions.
const (
	Forwarded Action = iota + 1 // the client got the call
	Blocked                     // the client got a notice in its place
)

func (a Action) String() string {
	switch a {
	case Forwarded:
		return "forwarded"
	case Blocked:
		return "blocked"
	}
	return "undecided"
}

// Record is what the gateway did with one call of a response, for an audit
// log: a plain value, safe to hand to another goroutine. It holds no
// argument value and nothing of the request.
type Record struct {
	Time     time.Time // when the response ended
	Wire     wire.Kind
	Call     fragment.Call   // the call's identity, as the model wrote it
	Decision policy.Decision // the policy's decision, the zero Decision if none came
	// DecidedAt is the length of the argument text that decided it, -1 if
	// no decision came.
	DecidedAt int64
	Action    Action
	// Reason says why a call was blocked without a policy decision to
	// block it: its arguments failed, its decision never came, it was held
	// back past the limit. Empty otherwise.
	Reason string
	// ArgumentBytes is the length of the argument text the gateway read.
	ArgumentBytes int64
	// UpstreamCancelled says the gateway cancelled the upstream response
	// when it blocked this call, the only one still streaming.
	UpstreamCancelled bool
}

// DefaultMaxHeld is the most bytes a response's events may be held back
// while a call's decision is pending, unless [Config.MaxHeld] says otherwise.
const DefaultMaxHeld = 1 << 20

// Config configures a [Guard]: what it asks of a policy, and what it reports.
// Its fields are read, never written, by the Guard; do not change them
// once the Guard is in use.
type Config struct {
	// Policy returns the policy of the tool called name, nil if the tool's
	// calls are forwarded unjudged. A gateway that lists its tools returns
	// a policy that asks (policy.New(nil)) for a tool it does not list. A
	// nil Policy forwards every call.
	Policy func(name string) *policy.Policy
	// BlockAsk blocks the calls whose policy decides ask. By default they
	// are forwarded: the agent's own permission prompt asks. With it, an
	// unattended call whose policy declares paths is held until its
	// arguments end, since a suspect path among them makes it an ask
	// (policy.Verdict.SuspectPath).
	BlockAsk bool
	// Notice returns the text the client reads in place of a blocked call;
	// nil uses DefaultNotice. The text is the gateway's, not the model's:
	// the model reads it on its next turn.
	Notice func(c fragment.Call, d policy.Decision, reason string) string
	// OnCall, if set, gets one Record per call when its response ends, in
	// the order of the calls' indexes. It is called from the goroutine
	// that reads the response, and must not block for long.
	OnCall func(Record)
	// OnStream, if set, is called with true when a stream begins to be
	// filtered and with false when it ends (Metrics.Stream counts them).
	OnStream func(open bool)
	// MaxHeld bounds the bytes held back for one response while a call's
	// decision is pending: past it, the call is blocked (its decision came
	// too late to be waited for). 0 means DefaultMaxHeld.
	MaxHeld int
	// Dialect, if set, is the syntax in which the upstream's model writes
	// its tool calls inside its text: an OpenAI-compatible server whose
	// tool parser is off. The text of each Chat Completions response is
	// then rewritten by package toolparser (toolparser.Stream,
	// toolparser.Whole) into the tool_calls a server that parses them
	// sends, which are judged as a provider's. A request the gateway
	// would judge that is not one of Chat Completions is refused.
	Dialect dialect.Syntax
	// Tools types the values of the calls in the text (Dialect), by the
	// tools' JSON Schemas; nil types them by each request's own "tools",
	// which the client's tools read the arguments by.
	Tools *schema.Tools
	// MaxEventSize bounds one event of a response ([sse.WithMaxEventSize]); 0
	// means sse.DefaultMaxEventSize. A larger event ends the response
	// with an error.
	MaxEventSize int
}

// DefaultNotice is the notice of a blocked call: it names the tool, the id
// and the rule, and says the call did not run.
func DefaultNotice(c fragment.Call, d policy.Decision, reason string) string {
	why := reason
	if why == "" {
		why = fmt.Sprintf("policy rule %d decided %s", d.Rule, d.Mode)
		if d.Rule == policy.ImplicitRule {
			why = fmt.Sprintf("no policy rule matched, so the default decided %s", d.Mode)
		}
	}
	if c.Server {
		// The provider runs its own tools: the gateway can only cut the
		// response short, and hide the call.
		return fmt.Sprintf("[argstream gateway] The call to the provider's tool %q (id %q) was blocked: %s. The provider may have begun to run it; the gateway cut its response.", c.Name, c.ID, why)
	}
	return fmt.Sprintf("[argstream gateway] The call to the tool %q (id %q) was blocked and did not run: %s.", c.Name, c.ID, why)
}

// A Guard judges the tool calls of provider responses while they stream.
// It is safe for concurrent use: each response it filters has state of its
// own.
type Guard struct {
	cfg Config
}

// New returns a [Guard] with the configuration cfg.
func New(cfg Config) *Guard {
	if cfg.MaxHeld <= 0 {
		cfg.MaxHeld = DefaultMaxHeld
	}
	if cfg.MaxEventSize <= 0 {
		cfg.MaxEventSize = sse.DefaultMaxEventSize
	}
	if cfg.Notice == nil {
		cfg.Notice = DefaultNotice
	}
	return &Guard{cfg: cfg}
}
