module github.com/argstream/argstream/sdk/anthropicsdk

go 1.26.0

require (
	github.com/anthropics/anthropic-sdk-go v1.84.0
	github.com/argstream/argstream v0.0.0-00010101000000-000000000000
	github.com/argstream/argstream/sdk/internal v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/go-logr/logr v1.4.2 // indirect
	github.com/go-logr/stdr v1.2.2 // indirect
	github.com/invopop/jsonschema v0.14.0 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1 // indirect
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.opentelemetry.io/auto/sdk v1.1.0 // indirect
	go.opentelemetry.io/otel v1.33.0 // indirect
	go.opentelemetry.io/otel/metric v1.33.0 // indirect
	go.opentelemetry.io/otel/trace v1.33.0 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
	golang.org/x/sync v0.16.0 // indirect
)

// Development in the repository: the library and the shared test helpers of
// this checkout. A replace in a dependency's go.mod is ignored by the
// modules that require it: they get the versions required above (see
// ../README.md for how a release sets them).
replace (
	github.com/argstream/argstream => ../..
	github.com/argstream/argstream/sdk/internal => ../internal
)
