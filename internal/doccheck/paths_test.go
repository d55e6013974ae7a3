package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Repository paths as a document names them anywhere (prose, code
// blocks, backquotes): a path from a source directory of the root, file
// or directory; from npm/ or .ci/, whose builds write beside their
// sources (npm/dist, .ci/out), only a source file.
var (
	sourcePathRE = regexp.MustCompile(`(?:^|[^\w/.-])((?:cmd|conformance|conventions|docs|emulator|internal)/[\w./-]*\w)`)
	buildPathRE  = regexp.MustCompile(`(?:^|[^\w/.-])((?:npm|\.ci)/[\w./-]*\.(?:go|md|sh|js|mjs|json|yml|yaml))\b`)
)

// TestRepositoryPaths: every repository path README.md and docs/*.md
// name exists, written from the root (emulator/internal/apiserve/serve.go,
// not internal/apiserve/serve.go), in code blocks too.
func TestRepositoryPaths(t *testing.T) {
	for _, d := range documents(t) {
		for i, line := range strings.Split(read(t, d), "\n") {
			for _, re := range []*regexp.Regexp{sourcePathRE, buildPathRE} {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					_, err := os.Stat(filepath.Join(root, m[1]))
					require.NoError(t, err, "%s:%d names %s, which does not exist in the repository", d, i+1, m[1])
				}
			}
		}
	}
}
