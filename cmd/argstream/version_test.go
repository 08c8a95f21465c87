package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestVersionLine: what version prints for each way of building argstream.
func TestVersionLine(t *testing.T) {
	build := func(version string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.27.4", Main: debug.Module{Path: "github.com/argstream/argstream", Version: version}}
		settings = append(settings, "GOOS", "darwin", "GOARCH", "arm64")
		for i := 0; i < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	const rev, at = "e29315e1a2b3c4d5e6f708192a3b4c5d6e7f8091", "2026-11-27T10:42:00Z"
	vcs := func(modified string) []string {
		return []string{"vcs", "git", "vcs.revision", rev, "vcs.time", at, "vcs.modified", modified}
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install @tag", build("v1.2.0"),
			"argstream v1.2.0 go1.27.4 darwin/arm64"},
		{"go install @commit", build("v0.0.0-20261127104200-e29315e1a2b3"),
			"argstream v0.0.0-20261127104200-e29315e1a2b3 go1.27.4 darwin/arm64"},
		{"go build in a clean checkout", build("v0.0.0-20261127104200-e29315e1a2b3", vcs("false")...),
			"argstream devel e29315e1a2b3 2026-11-27T10:42:00Z go1.27.4 darwin/arm64"},
		{"go build in a modified checkout", build("v1.2.1-0.20261127104200-e29315e1a2b3+dirty", vcs("true")...),
			"argstream devel e29315e1a2b3+dirty 2026-11-27T10:42:00Z go1.27.4 darwin/arm64"},
		{"go build at a tag, modified", build("v1.2.0+dirty", vcs("true")...),
			"argstream v1.2.0 e29315e1a2b3+dirty 2026-11-27T10:42:00Z go1.27.4 darwin/arm64"},
		{"go build before Go 1.24", build("(devel)", vcs("false")...),
			"argstream devel e29315e1a2b3 2026-11-27T10:42:00Z go1.27.4 darwin/arm64"},
		{"go run", build("(devel)"),
			"argstream (devel) go1.27.4 darwin/arm64"},
		{"no build information", nil,
			"argstream (devel) " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH},
	}
	for _, tt := range tests {
		if got := versionLine(tt.bi); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
