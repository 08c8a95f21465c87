package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fieldLine is one line of "argstream fields".
type fieldLine struct {
	Field string `json:"field"`
	Key   string `json:"key"`
	Text  string `json:"text,omitempty"`
	JSON  bool   `json:"json,omitempty"`
}

// mergedFields parses the lines of "argstream fields" and joins
// consecutive deltas of a field: the form that does not depend on the
// chunking.
func mergedFields(t *testing.T, out string) []fieldLine {
	t.Helper()
	var merged []fieldLine
	for _, l := range lines(out) {
		var f fieldLine
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if n := len(merged); n > 0 && f.Field == "delta" && merged[n-1].Field == "delta" && merged[n-1].Key == f.Key {
			merged[n-1].Text += f.Text
			continue
		}
		merged = append(merged, f)
	}
	return merged
}

// axio's string example, chunk by chunk, and what each line looks like.
func TestFieldsLines(t *testing.T) {
	chunks := writeFile(t, "chunks.json", `["{\"pat", "h\":\"/tm", "p/file\"", ", \"n\": {\"a\": [1, \"\\u00e9\"]}, \"e\": \"\", \"q\": \"\\\"\\n\"}"]`)
	got := invoke("", "fields", "--chunks", chunks)
	want := []string{
		`{"field":"start","key":"path"}`,
		`{"field":"delta","key":"path","text":"/tm"}`,
		`{"field":"delta","key":"path","text":"p/file"}`,
		`{"field":"end","key":"path"}`,
		`{"field":"start","key":"n","json":true}`,
		`{"field":"delta","key":"n","text":"{\"a\":[1"}`,
		`{"field":"delta","key":"n","text":",\"é"}`,
		`{"field":"delta","key":"n","text":"\""}`,
		`{"field":"delta","key":"n","text":"]"}`,
		`{"field":"delta","key":"n","text":"}"}`,
		`{"field":"end","key":"n"}`,
		`{"field":"start","key":"e"}`,
		`{"field":"end","key":"e"}`,
		`{"field":"start","key":"q"}`,
		`{"field":"delta","key":"q","text":"\"\n"}`,
		`{"field":"end","key":"q"}`,
	}
	if diff := cmp.Diff(want, lines(got.stdout)); diff != "" || got.code != exitOK || got.stderr != "" {
		t.Errorf("exit %d, stderr %q (-want +got):\n%s", got.code, got.stderr, diff)
	}
}

// The shipped examples give the same merged lines however they are cut.
func TestFieldsShippedExamples(t *testing.T) {
	files, err := filepath.Glob("../../testdata/examples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		whole := invoke("", "fields", file)
		if whole.code != exitOK || whole.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", file, whole.code, whole.stderr)
		}
		want := mergedFields(t, whole.stdout)
		if len(want) < 6 || want[len(want)-1].Field != "end" {
			t.Errorf("%s: %v", file, want)
		}
		for _, split := range []string{"1", "7", "16", "random:1", "random:99"} {
			got := invoke("", "fields", "--split", split, file)
			if got.code != exitOK || got.stderr != "" {
				t.Errorf("%s --split %s: exit %d, stderr %q", file, split, got.code, got.stderr)
			}
			if diff := cmp.Diff(want, mergedFields(t, got.stdout)); diff != "" {
				t.Errorf("%s --split %s (-whole +split):\n%s", file, split, diff)
			}
			if split == "1" && strings.Count(got.stdout, "\n") <= strings.Count(whole.stdout, "\n") {
				t.Errorf("%s --split 1: no more lines than whole", file)
			}
		}
	}
	// What fs_create_file holds.
	got := mergedFields(t, invoke("", "fields", "--split", "7", "../../testdata/examples/fs_create_file.json").stdout)
	want := []fieldLine{
		{Field: "start", Key: "path"}, {Field: "delta", Key: "path", Text: "src/main.rs"}, {Field: "end", Key: "path"},
		{Field: "start", Key: "content"}, {Field: "delta", Key: "content", Text: "fn main() {\n    println!(\"héllo, wörld 😀\");\n}\n"},
		{Field: "end", Key: "content"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fs_create_file (-want +got):\n%s", diff)
	}
}

// Invalid arguments exit 1 with the error after the lines already
// printed; arguments that are not an object are invalid.
func TestFieldsInvalid(t *testing.T) {
	for _, c := range []struct {
		name, in, out, msg string
	}{
		{"truncated", `{"path": "a", "content": "fn main`,
			`{"field":"start","key":"path"}` + "\n" + `{"field":"delta","key":"path","text":"a"}` + "\n" + `{"field":"end","key":"path"}` + "\n" +
				`{"field":"start","key":"content"}` + "\n" + `{"field":"delta","key":"content","text":"fn main"}` + "\n",
			`argstream: stdin: invalid JSON at byte 33 ("/content"): unexpected end of input in string`},
		{"duplicate", `{"path": "a", "path": "b"}`,
			`{"field":"start","key":"path"}` + "\n" + `{"field":"delta","key":"path","text":"a"}` + "\n" + `{"field":"end","key":"path"}` + "\n",
			`argstream: stdin: invalid JSON at byte 14 ("/path"): duplicate object key "path"`},
		{"array", `[{"path": "a"}]`, "", `argstream: stdin: fields: the arguments are an array, not an object`},
		{"string", `"path"`, "", `argstream: stdin: fields: the arguments are a string, not an object`},
		{"number", `1`, "", `argstream: stdin: fields: the arguments are a number, not an object`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, split := range []string{"--split=1", "--split=100"} {
				got := invoke(c.in, "fields", split)
				merged := invoke(c.in, "fields")
				if got.code != exitInvalid || got.stderr != c.msg+"\n" {
					t.Errorf("%s: exit %d, stderr %q, want %q", split, got.code, got.stderr, c.msg)
				}
				if split == "--split=100" && got.stdout != c.out {
					t.Errorf("%s: stdout\n%s\nwant\n%s", split, got.stdout, c.out)
				}
				if got.stdout != "" && !cmp.Equal(mergedFields(t, got.stdout), mergedFields(t, merged.stdout)) {
					t.Errorf("%s: stdout\n%s\nwhole\n%s", split, got.stdout, merged.stdout)
				}
			}
		})
	}
	if got := invoke(`{}`, "fields"); got.code != exitOK || got.stdout != "" || got.stderr != "" {
		t.Errorf("{}: %+v", got)
	}
}

func TestFieldsUsage(t *testing.T) {
	file := writeFile(t, "a.json", `{}`)
	for _, args := range [][]string{
		{"fields", "--split", "0", file},
		{"fields", "--split", "2", "--chunks", file},
		{"fields", "--format", "jsonl", file},
		{"fields", file, file},
		{"fields", filepath.Join(t.TempDir(), "missing.json")},
	} {
		got := invoke("", args...)
		if got.code != exitUsage || !strings.HasPrefix(got.stderr, "argstream: ") || got.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and a message", args, got.code, got.stdout, got.stderr, exitUsage)
		}
	}
	if got := invoke("", "fields", "--help"); got.code != exitOK || !strings.HasPrefix(got.stdout, "usage: argstream fields [--syntax") {
		t.Errorf("--help: %+v", got)
	}
	if got := invoke("", "help"); !strings.Contains(got.stdout, "\n  fields ") {
		t.Errorf("help does not list fields: %q", got.stdout)
	}
}

// The lines of the bytes received are on stdout before the input ends.
func TestFieldsPipeBeforeEOF(t *testing.T) {
	for _, split := range []string{"", "--split=7", "--split=random:5"} {
		t.Run(split, func(t *testing.T) {
			args := []string{"fields"}
			if split != "" {
				args = append(args, split)
			}
			p := startPiped(t, args...)
			p.write(t, pipeHead)
			// The path, and a first piece of the content: but for random
			// chunks, whose last one may end past the bytes written.
			until := `"key":"content","text"`
			if split == "--split=random:5" {
				until = `{"field":"end","key":"path"}`
			}
			var head []string
			for len(head) == 0 || !strings.Contains(head[len(head)-1], until) {
				head = append(head, p.line(t, "while the content is still streaming"))
			}
			if head[0] != `{"field":"start","key":"path"}` {
				t.Errorf("first line %s", head[0])
			}
			p.write(t, pipeTail)
			code, rest := p.wait(t)
			if code != exitOK || len(rest) == 0 || rest[len(rest)-1] != `{"field":"end","key":"content"}` || p.stderr.Len() != 0 {
				t.Errorf("exit %d, rest %q, stderr %q", code, rest, p.stderr.String())
			}
			whole := invoke(pipeHead+pipeTail, args...)
			got := strings.Join(append(head, rest...), "\n") + "\n"
			if !cmp.Equal(mergedFields(t, got), mergedFields(t, whole.stdout)) {
				t.Errorf("piped:\n%s\nat once:\n%s", got, whole.stdout)
			}
		})
	}
}
