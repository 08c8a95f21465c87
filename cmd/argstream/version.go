package main

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// pseudoVersion matches the end of a Go pseudo-version, which names a
// commit rather than a release: -20261127104200-e29315e1a2b3, with
// +dirty when the go command stamped a modified checkout.
var pseudoVersion = regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}(\+dirty)?$`)

// versionLine describes the build bi in one line, as runVersion prints it:
//
//	argstream v1.2.0 go1.26.8 linux/amd64
//	argstream v0.0.0-20261127104200-e29315e1a2b3 go1.26.8 linux/amd64
//	argstream devel e29315e1a2b3+dirty 2026-11-27T10:42:00Z go1.26.8 linux/amd64
//	argstream (devel) go1.26.8 linux/amd64
//
// First the module version, when it names a release (go install
// ...@v1.2.0) or when it is all there is (go install ...@COMMIT, a
// pseudo-version); then, for a build in a checkout, which the go command
// stamps with its version control settings, the commit's short hash,
// +dirty if files had changed, and the commit's time. "(devel)" is a build
// with neither: go run, or -buildvcs=false. Then the Go version and the
// target. bi may be nil.
func versionLine(bi *debug.BuildInfo) string {
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	parts := []string{"argstream"}
	version, rev := bi.Main.Version, settings["vcs.revision"]
	switch {
	case version != "" && version != "(devel)" && (rev == "" || !pseudoVersion.MatchString(version)):
		if rev != "" {
			version = strings.TrimSuffix(version, "+dirty") // said after the hash
		}
		parts = append(parts, version)
	case rev == "":
		parts = append(parts, "(devel)")
	default:
		parts = append(parts, "devel")
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if settings["vcs.modified"] == "true" {
			rev += "+dirty"
		}
		parts = append(parts, rev)
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
	}
	goVersion, goos, goarch := bi.GoVersion, settings["GOOS"], settings["GOARCH"]
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	if goos == "" || goarch == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	return strings.Join(append(parts, goVersion, goos+"/"+goarch), " ")
}
