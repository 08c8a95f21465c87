module github.com/argstream/argstream/sdk/ollamasdk

go 1.26.0

require (
	github.com/argstream/argstream v0.0.0-00010101000000-000000000000
	github.com/argstream/argstream/sdk/internal v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
	github.com/ollama/ollama v0.17.4
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.1 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/kr/pretty v0.3.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/rogpeppe/go-internal v1.8.0 // indirect
	github.com/wk8/go-ordered-map/v2 v2.1.8 // indirect
	golang.org/x/crypto v0.43.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	gopkg.in/check.v1 v1.0.0-20201130134442-10cb98267c6c // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

// Development in the repository: the library and the shared test helpers of
// this checkout. A replace in a dependency's go.mod is ignored by the
// modules that require it: they get the versions required above (see
// ../README.md for how a release sets them).
replace (
	github.com/argstream/argstream => ../..
	github.com/argstream/argstream/sdk/internal => ../internal
)
