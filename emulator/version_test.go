package emulator

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: the version comes from the main module or from the
// dependency that is this module (its replacement's if replaced); a source
// build says devel, with the commit's time and hash when the build
// recorded them.
func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-22T17:34:00Z"}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "c1e9e68aa2b3c4d5e6f708192a3b4c5d6e7f8091"
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"tagged build", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{"pseudo-version", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261122173400-c1e9e68aa2b3+dirty"}, Settings: vcs(rev, "true")},
			"v0.0.0-20261122173400-c1e9e68aa2b3+dirty"},
		{"source build with vcs", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs(rev, "false")}, "devel-20261122173400-c1e9e68aa2b3"},
		{"modified source build", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs(rev, "true")}, "devel-20261122173400-c1e9e68aa2b3+dirty"},
		{"revision without a time", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}}, "devel-c1e9e68aa2b3"},
		{"source build without vcs", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "devel"},
		{"dependency", debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "(devel)"}, Settings: vcs(rev, "false"),
			Deps: []*debug.Module{{Path: "github.com/other/mod", Version: "v9.0.0"}, {Path: modulePath, Version: "v1.4.0"}}}, "v1.4.0"},
		{"replaced by a directory", debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "(devel)"}, Settings: vcs(rev, "false"),
			Deps: []*debug.Module{{Path: modulePath, Version: "v1.4.0", Replace: &debug.Module{Path: "../dynamoemu"}}}}, "devel"},
		{"replaced by a fork", debug.BuildInfo{Main: debug.Module{Path: "example.com/app"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v1.4.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.4.1"}}}}, "v1.4.1"},
		{"not linked", debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "v2.0.0"}}, "devel"},
	}
	for _, tt := range tests {
		if got := versionOf(&tt.bi); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
