module github.com/argstream/argstream/sdk/openaisdk

go 1.26.0

require (
	github.com/argstream/argstream v0.0.0-00010101000000-000000000000
	github.com/argstream/argstream/sdk/internal v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
	github.com/openai/openai-go/v3 v3.96.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
)

// Development in the repository: the library and the shared test helpers of
// this checkout. A replace in a dependency's go.mod is ignored by the
// modules that require it: they get the versions required above (see
// ../README.md for how a release sets them).
replace (
	github.com/argstream/argstream => ../..
	github.com/argstream/argstream/sdk/internal => ../internal
)
