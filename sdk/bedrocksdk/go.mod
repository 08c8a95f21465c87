module github.com/argstream/argstream/sdk/bedrocksdk

go 1.26.0

require (
	github.com/argstream/argstream v0.0.0-00010101000000-000000000000
	github.com/argstream/argstream/sdk/internal v0.0.0-00010101000000-000000000000
	github.com/aws/aws-sdk-go-v2 v1.48.0
	github.com/aws/aws-sdk-go-v2/service/bedrockruntime v1.63.13
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream v1.7.27 // indirect
	github.com/aws/aws-sdk-go-v2/internal/configsources v1.5.12 // indirect
	github.com/aws/aws-sdk-go-v2/internal/endpoints/v2 v2.8.12 // indirect
	github.com/aws/smithy-go v1.28.9 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
)

// Development in the repository: the library and the shared test helpers of
// this checkout. A replace in a dependency's go.mod is ignored by the
// modules that require it: they get the versions required above (see
// ../README.md for how a release sets them).
replace (
	github.com/argstream/argstream => ../..
	github.com/argstream/argstream/sdk/internal => ../internal
)
