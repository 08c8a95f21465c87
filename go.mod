module github.com/argstream/argstream

go 1.26

require (
	github.com/go-json-experiment/json v1.27.2
	github.com/google/go-cmp v0.7.0
	github.com/leanovate/gopter v0.2.11
	github.com/rivo/uniseg v0.4.7
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)
