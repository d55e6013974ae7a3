package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// shippedBuildFlags are the flags every build of the shipped server
// carries (docs/containers.md, "Size"): no build paths, no symbol table
// or DWARF, and net/http without its HTTP/2 code.
var shippedBuildFlags = []string{"-tags nethttpomithttp2", "-trimpath", `-s -w`}

// TestShippedBuildFlags: the image (Dockerfile), the npm platform
// packages (npm/build.sh) and the release (.ci/release) build
// ./cmd/dynamoemu with the same size flags, so that one of them cannot
// grow back alone.
func TestShippedBuildFlags(t *testing.T) {
	r := root(t)
	// A go build command, with its continuation lines joined.
	build := regexp.MustCompile(`go build [^\n]*`)
	for _, f := range []string{"Dockerfile", "npm/build.sh", ".ci/release"} {
		b, err := os.ReadFile(filepath.Join(r, f))
		require.NoError(t, err)
		text := strings.ReplaceAll(string(b), "\\\n", " ")
		var found int
		for _, cmd := range build.FindAllString(text, -1) {
			if !strings.Contains(cmd, "./cmd/dynamoemu") || strings.Contains(cmd, "./cmd/dynamoemu-") {
				continue
			}
			found++
			for _, flag := range shippedBuildFlags {
				require.Contains(t, cmd, flag, "%s builds the server without %s: %s", f, flag, cmd)
			}
		}
		require.NotZero(t, found, "%s has no go build of ./cmd/dynamoemu", f)
	}
}
