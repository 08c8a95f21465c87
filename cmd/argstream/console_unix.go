//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

// This file is the terminal the prompt of replay --render asks on, on
// Unix: stdin's terminal, its echo and line editing turned off while the
// replay owns it, and put back as it was on every way out.

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// ttyConsole is the terminal on stdin, in the mode the prompt needs: no
// echo (a key typed never shows in the streamed text), no line editing (a
// key is an answer at once, without Enter), signals on (Ctrl-C still
// interrupts). restore puts back the mode it found.
type ttyConsole struct {
	fd      int
	saved   *unix.Termios
	once    sync.Once
	signals chan os.Signal
	done    chan struct{}
}

// openConsole returns the console of the prompt: stdin's terminal if
// stdin and stdout are both terminals (the prompt must be seen where it
// is answered), else nil. The terminal's mode is changed at once, and put
// back by restore, which the replay defers, and on SIGINT, SIGTERM and
// SIGHUP, after which the signal does what it would have done.
func openConsole(e env) (console, error) {
	in, ok := e.stdin.(*os.File)
	out, ok2 := e.stdout.(*os.File)
	if !ok || !ok2 || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, nil
	}
	fd := int(in.Fd())
	saved, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	raw := *saved
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	c := &ttyConsole{fd: fd, saved: saved, signals: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(c.signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go c.onSignal()
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
		c.restore()
		return nil, err
	}
	return c, nil
}

// onSignal puts the terminal back when a signal comes, then lets the
// signal end the process as it would have.
func (c *ttyConsole) onSignal() {
	select {
	case sig := <-c.signals:
		c.restore()
		signal.Reset(sig)
		n := sig.(syscall.Signal)
		syscall.Kill(os.Getpid(), n)
		// Still here: the signal was ignored when the command started.
		time.Sleep(100 * time.Millisecond)
		os.Exit(128 + int(n))
	case <-c.done:
	}
}

func (c *ttyConsole) restore() {
	c.once.Do(func() {
		unix.IoctlSetTermios(c.fd, ioctlSetTermios, c.saved)
		signal.Stop(c.signals)
		close(c.done)
	})
}

// wait waits for a key, at most d (no limit if d < 0), or, if in >= 0,
// until in has bytes to read.
func (c *ttyConsole) wait(d time.Duration, in int) (key bool, err error) {
	fds := []unix.PollFd{{Fd: int32(c.fd), Events: unix.POLLIN}}
	if in >= 0 {
		fds = append(fds, unix.PollFd{Fd: int32(in), Events: unix.POLLIN})
	}
	ms := -1
	if d >= 0 {
		ms = int((d + time.Millisecond - 1) / time.Millisecond)
	}
	for {
		n, err := unix.Poll(fds, ms)
		if errors.Is(err, unix.EINTR) {
			if ms >= 0 {
				return false, nil // a resize, say: the caller looks again
			}
			continue
		}
		if err != nil || n == 0 {
			return false, err
		}
		return fds[0].Revents != 0, nil
	}
}

// read reads the keys typed, after wait said there are some.
func (c *ttyConsole) read(p []byte) (int, error) {
	n, err := unix.Read(c.fd, p)
	if n == 0 && err == nil {
		return 0, io.EOF
	}
	if n < 0 {
		n = 0
	}
	return n, err
}

// discard drops what was typed and not yet read: type-ahead never answers
// a prompt shown after it.
func (c *ttyConsole) discard() {
	flushInput(c.fd)
	var buf [256]byte
	for {
		if key, _ := c.wait(0, -1); !key {
			return
		}
		if n, err := c.read(buf[:]); n == 0 || err != nil {
			return
		}
	}
}

// watchResize sends on the channel it returns when the terminal is
// resized (SIGWINCH); stop ends that.
func watchResize() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	return ch, func() { signal.Stop(ch) }
}
