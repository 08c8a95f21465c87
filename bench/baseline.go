package bench

import (
	"github.com/argstream/argstream/internal/handrolled"
	"github.com/argstream/argstream/token"
)

// baselineTokenizers returns the hand-rolled baseline tokenizer
// (internal/handrolled), which the bench module may import: its path lies
// under the module root that holds internal/.
func baselineTokenizers() []TokenizerImpl {
	return []TokenizerImpl{{
		Name: "handrolled",
		New:  func(h token.Handler, opts ...token.Option) Tokenizer { return handrolled.New(h, opts...) },
		Func: handrolled.NewFunc,
	}}
}
