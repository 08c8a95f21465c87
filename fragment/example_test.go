package fragment_test

import (
	"fmt"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/token/jsontoken"
)

// printer prints each fragment in both text forms.
type printer struct{}

func (printer) Push(p *fragment.Progress) error {
	line, err := p.Fragment.AppendJSON(nil)
	fmt.Printf("%-60v %s\n", &p.Fragment, line)
	return err
}

// The Translator turns tokenizer events into fragments.
func ExampleTranslator() {
	tr := fragment.NewTranslator(printer{}, &fragment.Call{Name: "fs_modify_file"})
	tok := jsontoken.New(tr)
	tok.Feed([]byte(`{"n": 2.5e3, "tags": [], "old": "lo`))
	tok.Feed([]byte(`ng"}`))
	tok.Close()
	// Output:
	// ObjectEntry { key: "n", value: Scalar(Number(2.5e3)) }       {"path":["n"],"number":"2.5e3"}
	// ObjectEntry { key: "n", value: Done }                        {"path":["n"],"done":true}
	// ObjectEntry { key: "tags", value: Done([]) }                 {"path":["tags"],"done":true,"empty":[]}
	// ObjectEntry { key: "old", value: String("lo") }              {"path":["old"],"string":"lo"}
	// ObjectEntry { key: "old", value: String("ng") }              {"path":["old"],"string":"ng"}
	// ObjectEntry { key: "old", value: Done }                      {"path":["old"],"done":true}
	// Done                                                         {"path":[],"done":true}
}
