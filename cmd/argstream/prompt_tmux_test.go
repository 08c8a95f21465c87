package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// promptContent is the file content of the test's fs_create_file call:
// 25 lines, long enough to stream for seconds at --pace 400.
func promptContent() string {
	var b strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "fn f%02d() { println!(\"héllo, wörld 😀\"); }\n", i)
	}
	return b.String()
}

// promptArgs are the arguments of the test's call: path first, as a model
// writes them (a map would sort content first).
func promptArgs() []byte {
	p, _ := json.Marshal("src/main.rs")
	c, _ := json.Marshal(promptContent())
	return fmt.Appendf(nil, `{"path":%s,"content":%s}`, p, c)
}

// promptStream writes an Anthropic SSE stream of one fs_create_file call
// whose arguments (path, then content, as in
// testdata/examples/fs_create_file.json) come in deltas of about 10 bytes,
// cut at rune boundaries, and a rules file that asks for any path outside
// /tmp/, decided once path is complete.
func promptStream(t *testing.T, dir string) (stream, rules string) {
	t.Helper()
	return promptStreamOf(t, dir, "fs_create_file", promptArgs())
}

// promptStreamOf is promptStream for a call of the tool name with args.
func promptStreamOf(t *testing.T, dir, name string, args []byte) (stream, rules string) {
	t.Helper()

	var sse bytes.Buffer
	event := func(typ string, data any) {
		b, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sse, "event: %s\ndata: %s\n\n", typ, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "test", "content": []any{}}})
	event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "tool_use", "id": "toolu_1", "name": name, "input": map[string]any{}}})
	for i := 0; i < len(args); {
		j := min(i+10, len(args))
		for j < len(args) && !utf8.RuneStart(args[j]) {
			j++
		}
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args[i:j])}})
		i = j
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}})
	event("message_stop", map[string]any{"type": "message_stop"})

	stream, rules = filepath.Join(dir, name+".sse"), filepath.Join(dir, "ask.json")
	if err := os.WriteFile(stream, sse.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := `{"run": [{"arg": "/path", "prefix": "/tmp/", "mode": "unattended"}, {"mode": "ask"}], "paths": ["/path"]}`
	if err := os.WriteFile(rules, []byte(r), 0o644); err != nil {
		t.Fatal(err)
	}
	return stream, rules
}

// tmuxSession runs command in a detached tmux session, 120x40, on a
// server of its own, killed at the test's end.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (s *tmuxSession) screen() string {
	out, err := s.tmux("capture-pane", "-p", "-t", "argstream")
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v: %s", err, out)
	}
	return out
}

// waitFor polls the screen until it holds want, failing at the deadline.
func (s *tmuxSession) waitFor(want string, within time.Duration) string {
	deadline := time.Now().Add(within)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%q not on the screen within %v; the screen:\n%s", want, within, scr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func startTmux(t *testing.T, command string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: this test runs the prompt in a real terminal and is never skipped; install it (apt-get install -y tmux; .ci/run does)")
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("argstream-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { s.tmux("kill-server") })
	if out, err := s.tmux("new-session", "-d", "-s", "argstream", "-x", "120", "-y", "40", command); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return s
}

// TestPromptInTerminal runs replay --render in tmux, a real terminal,
// and answers the early permission prompt: n declines the call while its
// content streams and stops the replay; y lets it finish.
func TestPromptInTerminal(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "argstream")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	stream, rules := promptStream(t, dir)
	command := fmt.Sprintf("NO_COLOR=1 %s replay --render function_call --rules %s --pace 400 %s; echo EXIT=$?; sleep 30", bin, rules, stream)
	lastLine := "fn f25()"

	t.Run("decline", func(t *testing.T) {
		s := startTmux(t, command)
		scr := s.waitFor("Allow? [y/n/e]", 10*time.Second)
		if strings.Contains(scr, lastLine) || strings.Contains(scr, "EXIT=") {
			t.Fatalf("the prompt came after the stream ended; the screen:\n%s", scr)
		}
		if !strings.Contains(scr, `fs_create_file(path: "src/main.rs"`) {
			t.Errorf("the prompt does not show the partial arguments; the screen:\n%s", scr)
		}
		if out, err := s.tmux("send-keys", "-t", "argstream", "n", "Enter"); err != nil {
			t.Fatalf("tmux send-keys: %v: %s", err, out)
		}
		scr = s.waitFor("EXIT=", 15*time.Second)
		t.Logf("the screen at the end:\n%s", scr)
		for _, want := range []string{"→ call 0 declined", "✗", "never streamed: ", "argument bytes of call 0", "fs_create_file: declined", "EXIT=1"} {
			if !strings.Contains(scr, want) {
				t.Errorf("the screen lacks %q", want)
			}
		}
		if strings.Contains(scr, lastLine) {
			t.Errorf("the declined call's content streamed to its end")
		}
	})

	t.Run("accept", func(t *testing.T) {
		s := startTmux(t, command)
		scr := s.waitFor("Allow? [y/n/e]", 10*time.Second)
		if strings.Contains(scr, lastLine) || strings.Contains(scr, "EXIT=") {
			t.Fatalf("the prompt came after the stream ended; the screen:\n%s", scr)
		}
		if out, err := s.tmux("send-keys", "-t", "argstream", "y", "Enter"); err != nil {
			t.Fatalf("tmux send-keys: %v: %s", err, out)
		}
		scr = s.waitFor("EXIT=", 15*time.Second)
		t.Logf("the screen at the end:\n%s", scr)
		for _, want := range []string{"→ call 0 allowed", lastLine, "fs_create_file: approved", "EXIT=0"} {
			if !strings.Contains(scr, want) {
				t.Errorf("the screen lacks %q", want)
			}
		}
	})

	t.Run("edit", func(t *testing.T) {
		s := startTmux(t, strings.Replace(command, "function_call", "json", 1))
		scr := s.waitFor("Allow? [y/n/e]", 10*time.Second)
		if strings.Contains(scr, "f25()") || !strings.Contains(scr, "// …") {
			t.Fatalf("the prompt came after the stream ended, or without the JSON placeholder; the screen:\n%s", scr)
		}
		if out, err := s.tmux("send-keys", "-t", "argstream", "e", "Enter"); err != nil {
			t.Fatalf("tmux send-keys: %v: %s", err, out)
		}
		scr = s.waitFor("EXIT=", 15*time.Second)
		for _, want := range []string{"→ call 0 marked for editing", "fs_create_file: marked for editing: complete, not run as streamed", "EXIT=0"} {
			if !strings.Contains(scr, want) {
				t.Errorf("the screen lacks %q; the screen:\n%s", want, scr)
			}
		}
	})
}

// TestPromptNoTerminal: without a terminal, replay --render never
// approves: the ask is answered n, the call declined, the replay stopped,
// the bytes never streamed counted, exit 1.
func TestPromptNoTerminal(t *testing.T) {
	stream, rules := promptStream(t, t.TempDir())
	for _, style := range []string{"function_call", "json"} {
		got := replayCmd(strings.NewReader("y\n"), "--render", style, "--rules", rules, "--pace", "none", stream)
		if got.code != exitInvalid {
			t.Errorf("%s: exit %d, want %d; stderr %q", style, got.code, exitInvalid, got.stderr)
		}
		// The policy decides at byte 21, the end of path, in the third
		// delta of 10 bytes: the rest of the arguments is never streamed.
		unread := len(promptArgs()) - 30
		for _, want := range []string{
			"Allow? [y/n/e] n (stdin is not a terminal: not approved)",
			"fs_create_file: not approved, no terminal",
			fmt.Sprintf("never streamed: %d argument bytes of call 0, 0 of later calls;", unread),
		} {
			if !strings.Contains(got.stdout, want) {
				t.Errorf("%s: stdout lacks %q:\n%s", style, want, got.stdout)
			}
		}
		if !strings.Contains(got.stderr, "not approved, no terminal") {
			t.Errorf("%s: stderr %q", style, got.stderr)
		}
	}
}

// TestPromptFlags: --pace needs --render, and bad values are usage errors.
func TestPromptFlags(t *testing.T) {
	stream, _ := promptStream(t, t.TempDir())
	for _, args := range [][]string{
		{"--pace", "none", stream},
		{"--render", "fancy", stream},
		{"--render", "json", "--format", "jsonl", stream},
		{"--render", "json", "--pace", "0", stream},
		{"--render", "json", "--pace", "fast", stream},
	} {
		if got := replayCmd(strings.NewReader(""), args...); got.code != exitUsage || got.stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want %d and a message", args, got.code, got.stderr, exitUsage)
		}
	}
	// Without a policy nothing asks: the call streams whole, exit 0.
	got := replayCmd(strings.NewReader(""), "--render", "function_call", "--pace", "none", stream)
	if got.code != exitOK || !strings.Contains(got.stdout, "fn f25()") || !strings.Contains(got.stdout, "fs_create_file: complete (no policy)") {
		t.Errorf("no policy: exit %d, stdout:\n%s\nstderr %q", got.code, got.stdout, got.stderr)
	}
}

// TestPromptModifyFile: fs_modify_file, the shipped example, asks once its
// path is complete, while its patterns stream, in both styles.
func TestPromptModifyFile(t *testing.T) {
	args, err := os.ReadFile("../../testdata/examples/fs_modify_file.json")
	if err != nil {
		t.Fatal(err)
	}
	stream, rules := promptStreamOf(t, t.TempDir(), "fs_modify_file", bytes.TrimSpace(args))
	for style, partial := range map[string]string{
		"function_call": `fs_modify_file(path: "lib.rs", …)`,
		"json":          "{\n  \"path\": \"lib.rs\"\n  // …\n}",
	} {
		got := replayCmd(strings.NewReader(""), "--render", style, "--rules", rules, "--pace", "none", stream)
		for _, want := range []string{partial, "Allow? [y/n/e] n (stdin is not a terminal: not approved)", "never streamed: "} {
			if !strings.Contains(got.stdout, want) {
				t.Errorf("%s: stdout lacks %q:\n%s", style, want, got.stdout)
			}
		}
		if got.code != exitInvalid || strings.Contains(got.stdout, "src/b.rs") {
			t.Errorf("%s: exit %d (want 1), or the declined patterns streamed on:\n%s", style, got.code, got.stdout)
		}
	}
}
