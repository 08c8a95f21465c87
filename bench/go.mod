module github.com/argstream/argstream/bench

go 1.26

require (
	github.com/argstream/argstream v0.0.0
	github.com/bcicen/jstream v1.0.1
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
)

replace github.com/argstream/argstream => ../
