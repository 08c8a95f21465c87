package main

import (
	"bufio"
	"bytes"

	"github.com/argstream/argstream"
	"github.com/argstream/argstream/fields"
	"github.com/argstream/argstream/render"
	"github.com/go-json-experiment/json/jsontext"
)

const fieldsUsage = "fields " + inputUsage + " [FILE]"

// runFields prints the field events of the input (package [fields]), one JSON
// line each, as they are produced: those of each read are on stdout before
// the next read waits.
//
//	{"field":"start","key":"path"}
//	{"field":"delta","key":"path","text":"/tm"}
//	{"field":"end","key":"path"}
//
// A start line has "json":true when the value is not a string: its text is
// then JSON text, not the decoded string.
func runFields(e env, args []string) int {
	src, code, ok := openCallInput(e, newFlags("fields"), fieldsUsage, args, nil)
	if !ok {
		return code
	}
	defer src.close()
	w := bufio.NewWriter(e.stdout)
	var line, shown []byte
	print := fields.New(func(ev *fields.Event) error {
		var err error
		line, err = appendFieldLine(line[:0], ev)
		line = bytes.TrimSuffix(line, []byte("\n"))
		shown = render.AppendEscaped(shown[:0], line, render.JSONText) // the same JSON, safe to look at
		w.Write(append(shown, '\n'))
		return err
	})
	return report(e, src.name, src.feed(argstream.New(print, src.opts...), w.Flush))
}

// appendFieldLine appends ev as one JSON line. It fails only on text that
// is not valid UTF-8, which the tokenizer never produces.
func appendFieldLine(b []byte, ev *fields.Event) ([]byte, error) {
	b = append(b, `{"field":"`...)
	b = append(b, ev.Kind.String()...)
	b = append(b, `","key":`...)
	b, err := jsontext.AppendQuote(b, ev.Key)
	if err != nil {
		return b, err
	}
	switch {
	case ev.Kind == fields.Delta:
		b = append(b, `,"text":`...)
		if b, err = jsontext.AppendQuote(b, ev.Text); err != nil {
			return b, err
		}
	case ev.Kind == fields.Start && ev.JSON:
		b = append(b, `,"json":true`...)
	}
	return append(b, "}\n"...), nil
}
