module github.com/argstream/argstream/bench

go 1.26

require (
	github.com/argstream/argstream v0.0.0
	github.com/bcicen/jstream v1.0.1
	github.com/go-json-experiment/json v1.27.2
)

replace github.com/argstream/argstream => ../
