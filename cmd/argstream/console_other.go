//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package main

import (
	"os"
	"time"
)

// openConsole returns no console: the prompt asks on Unix terminals only,
// and elsewhere nothing is approved.
func openConsole(e env) (console, error) { return nil, nil }

// watchResize watches nothing: the width is read once.
func watchResize() (<-chan os.Signal, func()) { return nil, func() {} }

var _ = time.Second
