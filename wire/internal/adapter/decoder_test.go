package adapter

import (
	"strings"
	"testing"
)

// fields decodes data as {"s": string, "n": nullable string, "i": index,
// "o": {"s": string}, "a": [string...], "v": any value} and reports what
// it read, or the error.
func fields(data string) (string, error) {
	var d Decoder
	var out strings.Builder
	var buf []byte
	d.Reset([]byte(data))
	err := d.Root(Names{"s", "n", "i", "o", "a", "v"}, func(key []byte) (err error) {
		switch string(key) {
		case "s":
			buf, err = d.String(buf)
			out.WriteString("s=" + string(buf) + ";")
		case "n":
			var ok bool
			buf, ok, err = d.NullableString(buf)
			if !ok {
				out.WriteString("n=null;")
			} else {
				out.WriteString("n=" + string(buf) + ";")
			}
		case "i":
			var n int64
			n, err = d.Index()
			if err == nil {
				out.WriteString("i=" + strings.Repeat("|", int(n%10)) + ";")
			}
		case "o":
			err = d.Object(nil, func(key []byte) (err error) {
				buf, err = d.String(buf)
				out.WriteString("o." + string(key) + "=" + string(buf) + ";")
				return err
			})
		case "a":
			err = d.Array(func(i int) (err error) {
				buf, err = d.String(buf)
				out.WriteString("a=" + string(buf) + ";")
				return err
			})
		case "v":
			v, err := d.Value()
			out.WriteString("v=" + string(v) + ";")
			return err
		default:
			return d.Skip()
		}
		return err
	})
	return out.String(), err
}

func TestDecoder(t *testing.T) {
	for _, tc := range []struct {
		data, want, err string
	}{
		{`{}`, ``, ``},
		{` {"s":"a\nb","x":[1,{"y":2}],"i":12} `, "s=a\nb;i=||;", ``},
		{`{"n":null,"n2":"\u00e9"}`, `n=null;`, ``},
		// Repeated names, anywhere: readers take the first or the last.
		{`{"n":null,"n":"x"}`, `n=null;`, `duplicate`},
		{`{"x":{"y":1,"y":2}}`, ``, `duplicate`},
		// Names readers match differently.
		{`{"S":"a"}`, ``, `member name "S" is "s" in another case`},
		{`{"o":{"k":"v","K":"w"}}`, `o.k=v;`, `member names "k" and "K" are equal under case folding`},
		{`{"o":{"k":"v","\u212a":"w"}}`, ``, `written with an escape`},
		{`{"o":{"k":"v","` + "\u212a" + `":"w"}}`, `o.k=v;`, `equal under case folding`},
		{`{"\u0073":"a"}`, ``, `member name "\u0073" is written with an escape`},
		{`{"x":"a","X":"b"}`, ``, `equal under case folding`},
		{`{"o":null,"a":null}`, ``, ``},
		{`{"o":{"k":"v"},"a":["x","y"],"v":{"z":[]}}`, `o.k=v;a=x;a=y;v={"z":[]};`, ``},
		{`{"i":9007199254740991}`, `i=|;`, ``},
		{`{"i":9007199254740992}`, ``, `/i is 9007199254740992, not an integer from 0 to 2^53-1`},
		{`{"i":9223372036854775808}`, ``, `not an integer from 0`},
		{`{"i":-1}`, ``, `not an integer from 0`},
		{`{"i":1.0}`, ``, `not an integer from 0`},
		{`{"i":"1"}`, ``, `not an integer from 0`},
		{`{"s":null}`, `s=;`, `/s is null, not a string`},
		{`{"s":1}`, `s=;`, `/s is not a string`},
		{`{"n":true}`, `n=null;`, `/n is not a string`},
		{`{"o":[]}`, ``, `/o is not an object`},
		{`{"a":{}}`, ``, `/a is not an array`},
		{`[]`, ``, `not a JSON object`},
		{`"x"`, ``, `not a JSON object`},
		{`{} {}`, ``, `bytes after the JSON object`},
		{`{"s":"a"`, `s=a;`, `EOF`},
		{``, ``, `EOF`},
		{`{"s":"\ud800"}`, ``, `invalid surrogate`},
	} {
		got, err := fields(tc.data)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: error %v, want %q", tc.data, err, tc.err)
		}
		if tc.err == "" && got != tc.want {
			t.Errorf("%q: read %q, want %q", tc.data, got, tc.want)
		}
	}
}

func TestDecoderAllocs(t *testing.T) {
	var d Decoder
	var typ, str []byte
	var idx int64
	data := []byte(`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"pa"},"x":[1,2,{"y":null}]}`)
	read := func() {
		d.Reset(data)
		err := d.Root(Names{"type", "index", "delta"}, func(key []byte) (err error) {
			switch string(key) {
			case "type":
				typ, err = d.String(typ)
			case "index":
				idx, err = d.Index()
			case "delta":
				err = d.Object(Names{"partial_json"}, func(key []byte) (err error) {
					if string(key) == "partial_json" {
						str, err = d.String(str)
						return err
					}
					return d.Skip()
				})
			default:
				err = d.Skip()
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read()
	if n := testing.AllocsPerRun(100, read); n != 0 {
		t.Errorf("%v allocations per event, want 0", n)
	}
	if string(typ) != "content_block_delta" || idx != 3 || string(str) != `{"pa` {
		t.Errorf("read %q %d %q", typ, idx, str)
	}
}
