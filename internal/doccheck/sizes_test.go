package doccheck

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sizeRowRE is a row of the sizes table: its artifact and its size in MB
// (the decimals written are the precision checked).
var sizeRowRE = regexp.MustCompile(`^\| (.+) \| (\d+(?:\.\d+)?) MB \|$`)

// statedSizes returns the rows of the table after "<!-- doccheck: sizes -->"
// in doc: artifact, the figure as written.
func statedSizes(t *testing.T, doc string) map[string]string {
	t.Helper()
	_, table, ok := strings.Cut(read(t, doc), "<!-- doccheck: sizes -->\n")
	require.True(t, ok, "%s has no sizes table (<!-- doccheck: sizes -->)", doc)
	out := map[string]string{}
	for _, l := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		m := sizeRowRE.FindStringSubmatch(l)
		require.NotNil(t, m, "%s: a sizes row that is not \"| artifact | N MB |\": %q", doc, l)
		out[m[1]] = m[2]
	}
	return out
}

// sameAt reports whether bytes, in MB (10^6 bytes), is stated when rounded
// to stated's decimals.
func sameAt(bytes int64, stated string) bool {
	dec := 0
	if _, frac, ok := strings.Cut(stated, "."); ok {
		dec = len(frac)
	}
	return strconv.FormatFloat(math.Round(float64(bytes)/1e6*math.Pow10(dec))/math.Pow10(dec), 'f', dec, 64) == stated
}

func TestSameAt(t *testing.T) {
	require.True(t, sameAt(17_166_498, "17.2"))
	require.True(t, sameAt(17_166_498, "17.17"))
	require.False(t, sameAt(17_166_498, "17.0"))
	require.False(t, sameAt(17_043_618, "17.2"))
	require.True(t, sameAt(4_910_000, "4.91"))
}

// shippedServerFlags are the go build flags of the shipped server
// (Dockerfile, npm/build.sh, .ci/release): the HTTP/2-less net/http, the
// cold packages' gcflags, no paths, no symbols.
func shippedServerFlags(t *testing.T, root string) []string {
	t.Helper()
	flags := []string{"-tags", "nethttpomithttp2"}
	for _, l := range strings.Split(read(t, "cmd/dynamoemu/cold.gcflags"), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			flags = append(flags, l)
		}
	}
	return append(flags, "-trimpath", "-buildvcs=false", "-ldflags=-s -w")
}

// TestDocumentedSizes: the sizes docs/containers.md states for this
// checkout's server, tools and image are what the shipped flags build
// (linux/amd64), at the precision written. It builds two binaries
// (minutes on a cold cache), so it runs with DYNAMOEMU_HEAVY_TESTS (CI).
func TestDocumentedSizes(t *testing.T) {
	stated := statedSizes(t, "docs/containers.md")
	const server, tools, image = "the server, `/dynamoemu`", "the tools, `/dynamoemu-tools`", "the image: the two binaries and 16 kB of links and directories"
	for _, k := range []string{server, tools, image} {
		require.Contains(t, stated, k, "docs/containers.md's sizes table lost its row %q", k)
	}
	if !heavy {
		t.Skip("builds the shipped binaries: set DYNAMOEMU_HEAVY_TESTS=1 (CI does)")
	}
	abs, err := filepath.Abs(root)
	require.NoError(t, err)
	dir := t.TempDir()
	build := func(out string, args ...string) int64 {
		t.Helper()
		cmd := exec.Command("go", append([]string{"build", "-o", filepath.Join(dir, out)}, args...)...)
		cmd.Dir = abs
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "go build %s: %s", out, b)
		st, err := os.Stat(filepath.Join(dir, out))
		require.NoError(t, err)
		return st.Size()
	}
	s := build("dynamoemu", append(shippedServerFlags(t, abs), "./cmd/dynamoemu")...)
	tl := build("dynamoemu-tools", "-gcflags=all=-l", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "./cmd/dynamoemu-tools")
	const links = 16_000 // the image's links and directories (.ci/container measures the image)
	for _, c := range []struct {
		row   string
		bytes int64
	}{{server, s}, {tools, tl}, {image, s + tl + links}} {
		require.True(t, sameAt(c.bytes, stated[c.row]), "docs/containers.md says %s is %s MB; this checkout builds %d bytes (%s MB): write the build's figure",
			c.row, stated[c.row], c.bytes, fmt.Sprintf("%.2f", float64(c.bytes)/1e6))
	}
	t.Logf("server %d bytes, tools %d bytes, image about %d bytes", s, tl, s+tl+links)
}
