package token

// DefaultMaxDepth is the nesting limit when [WithMaxDepth] is not given: deep
// enough for any tool schema, shallow enough to bound the work and memory an
// adversarial input can demand.
const DefaultMaxDepth = 512

// HardMaxDepth is the largest limit [WithMaxDepth] accepts (jsontext's own).
const HardMaxDepth = 10000

// Option configures a tokenizer. An Option only sets fields of the [Config] it
// is given, so one Option may be applied from several goroutines at once.
type Option func(*Config)

// Config is the configuration that options build. [Tokenizer] implementations
// read it through [NewConfig]: it is exported, unlike the configuration of
// the other packages' options, because tokenizers live in other packages
// (token/jsontoken, token/caret, a caller's own [NewFunc]). A Config is a
// plain value: several goroutines may read one at once, as long as none
// writes it.
type Config struct {
	MaxDepth int   // at least 1, at most HardMaxDepth
	MaxSize  int64 // 0 for no limit
	// AllowConfusableKeys turns off the checks of ErrCaseFoldedKey and
	// ErrNULInKey: only exact duplicates are rejected.
	AllowConfusableKeys bool
}

// WithMaxDepth limits how deeply arrays and objects may nest: [[1]] has
// depth 2. Values below 1 select [DefaultMaxDepth]; values above
// [HardMaxDepth] select it.
func WithMaxDepth(n int) Option {
	return func(c *Config) {
		switch {
		case n < 1:
			c.MaxDepth = DefaultMaxDepth
		case n > HardMaxDepth:
			c.MaxDepth = HardMaxDepth
		default:
			c.MaxDepth = n
		}
	}
}

// WithMaxSize limits the input to n bytes; 0 or less means no limit. Input
// past the limit ends in [ErrTooLarge] at offset n.
func WithMaxSize(n int64) Option {
	return func(c *Config) { c.MaxSize = max(n, 0) }
}

// WithConfusableKeys with allow true accepts the object keys that a tool
// runtime would confuse, for users who need exactly RFC 8259: keys equal
// under case folding but not exactly ("path" and "PATH", [ErrCaseFoldedKey]),
// and keys holding U+0000 ([ErrNULInKey]). Exact duplicates stay rejected
// ([ErrDuplicateKey]). By default both checks are on.
func WithConfusableKeys(allow bool) Option {
	return func(c *Config) { c.AllowConfusableKeys = allow }
}

// NewConfig applies opts to the defaults.
func NewConfig(opts ...Option) Config {
	c := Config{MaxDepth: DefaultMaxDepth}
	for _, o := range opts {
		o(&c)
	}
	return c
}
