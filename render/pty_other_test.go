//go:build !linux

package render

import (
	"os"
	"testing"
)

// openTestPTY returns no terminal: the tests that need one are Linux's.
func openTestPTY(t *testing.T) (master, tty *os.File) { return nil, nil }
