package sink_test

import (
	"errors"
	"testing"

	"github.com/argstream/argstream/fragment"
	"github.com/argstream/argstream/sink"
)

// logSink logs what it sees under its name and fails as told.
type logSink struct {
	name string
	log  *[]string
	fail error
}

func (l logSink) Push(p *fragment.Progress) error {
	*l.log = append(*l.log, l.name+" "+p.Fragment.String())
	return l.fail
}

func (l logSink) End(err error) {
	*l.log = append(*l.log, l.name+" End")
}

func TestMulti(t *testing.T) {
	var log []string
	e1, e2 := errors.New("one"), errors.New("two")
	m := sink.Multi(logSink{"a", &log, nil}, logSink{"b", &log, e1}, logSink{"c", &log, e2})
	p := &fragment.Progress{Fragment: fragment.Fragment{Kind: fragment.Null}}
	if err := m.Push(p); err != e1 {
		t.Errorf("Push = %v, want the first error", err)
	}
	m.End(nil)
	want := []string{"a Scalar(Null)", "b Scalar(Null)", "c Scalar(Null)", "a End", "b End", "c End"}
	if len(log) != len(want) {
		t.Fatalf("log = %q, want %q", log, want)
	}
	for i := range want {
		if log[i] != want[i] {
			t.Fatalf("log = %q, want %q", log, want)
		}
	}
}

func TestMultiOfOne(t *testing.T) {
	var log []string
	s := logSink{"a", &log, nil}
	if got := sink.Multi(s); got != sink.Sink(s) {
		t.Errorf("Multi of one sink = %#v, want the sink itself", got)
	}
}

func TestMultiDoesNotAlias(t *testing.T) {
	var log []string
	sinks := []sink.Sink{logSink{"a", &log, nil}, logSink{"b", &log, nil}}
	m := sink.Multi(sinks...)
	sinks[0] = logSink{"z", &log, nil}
	m.End(nil)
	if log[0] != "a End" {
		t.Errorf("Multi uses the caller's slice: %q", log)
	}
}
