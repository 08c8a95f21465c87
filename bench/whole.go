package bench

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// The references below parse the complete document once. They are not
// contenders (nothing is available before the last byte arrives); they say
// how fast the same bytes go when nothing has to be incremental.

// WholeJSONText reads every token of a complete document with jsontext and
// returns how many there were. The decoder reads from a bytes.Buffer, which
// jsontext takes whole without copying: its fastest path.
func WholeJSONText(data []byte) (int64, error) {
	return jsontextTokens(bytes.NewBuffer(data))
}

// jsontextTokens reads every token from r with jsontext and returns how many
// there were.
func jsontextTokens(r io.Reader) (int64, error) {
	dec := jsontext.NewDecoder(r)
	var n int64
	for {
		_, err := dec.ReadToken()
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		}
		n++
	}
}

// WholeUnmarshal decodes a complete document with encoding/json into the
// generic Go values (map[string]any and so on) that the SDKs' JSON.parse
// gives in JavaScript.
func WholeUnmarshal(data []byte) (any, error) {
	var v any
	err := json.Unmarshal(data, &v)
	return v, err
}
