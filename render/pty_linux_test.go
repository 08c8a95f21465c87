//go:build linux

package render

import (
	"bytes"
	"fmt"
	"github.com/argstream/argstream/fragment"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/argstream/argstream/toolcall"
)

// openPTY opens a pseudo-terminal of the given width and returns its
// master and its terminal end, or skips the test where there is none.
func openPTY(t *testing.T, cols uint16) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
			return e
		}
		return nil
	}
	var n uint32
	var unlock int32
	if err := ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Skipf("TIOCGPTN: %v", err)
	}
	if err := ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Skipf("TIOCSPTLCK: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	ws := struct{ rows, cols, x, y uint16 }{24, cols, 0, 0}
	if err := ioctl(tty, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Skipf("TIOCSWINSZ: %v", err)
	}
	return master, tty
}

// readUntil reads what the terminal shows until it holds want.
func readUntil(t *testing.T, master *os.File, want string) string {
	t.Helper()
	var got bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for !strings.Contains(got.String(), want) {
			n, err := master.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		master.Close()
		<-done
		t.Fatalf("the terminal shows %q, without %q", got.String(), want)
	}
	return got.String()
}

// TestTerminal: on a real (pseudo-)terminal, the renderer finds colour and
// the terminal's width by itself; NO_COLOR turns colour off.
func TestTerminal(t *testing.T) {
	for _, noColor := range []string{"", "1"} {
		t.Run("NO_COLOR="+noColor, func(t *testing.T) {
			t.Setenv("NO_COLOR", noColor)
			master, tty := openPTY(t, 40)
			r := New(tty)
			if r.color != (noColor == "") || r.limit != 39 {
				t.Fatalf("colour %v, limit %d; want %v, 39", r.color, r.limit, noColor == "")
			}
			resp := toolcall.New(toolcall.WithSinks(r.Sink))
			resp.Start(fragment.Call{Index: 0, ID: "c", Name: "fs_create_file"}, nil)
			resp.ChunkString(0, `{"path": "src/main.rs", "content": "fn main() {\n    println!(\"\u202eolleh\");\n}\n"}`)
			resp.End()
			// The terminal's line discipline writes \r\n for \n.
			got := strings.ReplaceAll(readUntil(t, master, "  )"), "\r\n", "\n")
			want := "Calling tool fs_create_file(path: \n  ┆ \"src/main.rs\", content: …\n  │ fn main() {\n  │     println!(\"\\u202eolleh\");\n  │ }\n  )"
			if noColor == "" {
				if !strings.Contains(got, sgrBold+"fs_create_file"+sgrReset) || !strings.Contains(got, sgrReverse+`\u202e`+sgrReset) {
					t.Errorf("no colour on the terminal: %q", got)
				}
				got = stripSGR(got)
			} else if strings.Contains(got, "\x1b") {
				t.Errorf("colour with NO_COLOR set: %q", got)
			}
			if got = strings.TrimSuffix(got, "\n"); got != want {
				t.Errorf("the terminal shows\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// openTestPTY is a terminal 40 columns wide, for the tests of every
// system.
func openTestPTY(t *testing.T) (master, tty *os.File) { return openPTY(t, 40) }
