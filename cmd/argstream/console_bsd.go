//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// flushInput drops the input the terminal has received and nobody read
// (TIOCFLUSH of FREAD, 1).
func flushInput(fd int) { unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, 1) }
