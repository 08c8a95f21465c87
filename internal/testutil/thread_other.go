//go:build !linux

package testutil

import "time"

// threadTime returns the time on the wall: this system does not say how
// much CPU time a thread has used, at least not through package [syscall].
func threadTime() time.Duration { return time.Duration(time.Now().UnixNano()) }
