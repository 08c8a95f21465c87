module github.com/argstream/argstream/sdk/internal

go 1.26.0

require (
	github.com/argstream/argstream v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
)

require github.com/go-json-experiment/json v1.27.2 // indirect

// Development in the repository: the library of this checkout. A replace
// in a dependency's go.mod is ignored by the modules that require it.
replace github.com/argstream/argstream => ../..
