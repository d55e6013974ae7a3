package doccheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// jsFileRE is a JS block's first line naming the file it is: an ES
// module (NAME.mjs) or CommonJS (NAME.cjs), which decides whether
// top-level await, import and require are valid in it.
var jsFileRE = regexp.MustCompile(`^// ([A-Za-z0-9._-]+\.[mc]js)([: ].*)?$`)

// TestJSBlocksNameTheirFile: every marked JS block (npm/test.sh runs them
// as written, as the file their first line names) names NAME.mjs or
// NAME.cjs, and, where Node is on PATH, parses as that file: no top-level
// await in CommonJS, no import in CommonJS; an ES module that calls
// require() (defined only in CommonJS) is refused here too, since Node's
// parser takes it and fails only when it runs.
func TestJSBlocksNameTheirFile(t *testing.T) {
	node, _ := exec.LookPath("node")
	checked := 0
	for _, d := range documents(t) {
		for _, b := range runnables(t, d, read(t, d)) {
			if b.lang != "js" {
				continue
			}
			first, _, _ := strings.Cut(b.text, "\n")
			m := jsFileRE.FindStringSubmatch(first)
			require.NotNil(t, m, "%s:%d: a marked js block's first line names its file, // NAME.mjs or // NAME.cjs; got %q", b.doc, b.line, first)
			name := m[1]
			if strings.HasSuffix(name, ".mjs") {
				require.NotRegexp(t, `(^|[^.\w])require\(`, b.text, "%s:%d: %s is an ES module: require is not defined there", b.doc, b.line, name)
			}
			checked++
			if node == "" {
				continue
			}
			f := filepath.Join(t.TempDir(), name)
			require.NoError(t, os.WriteFile(f, []byte(b.text), 0o644))
			out, err := exec.Command(node, "--check", f).CombinedOutput()
			require.NoError(t, err, "%s:%d: node --check %s:\n%s", b.doc, b.line, name, out)
		}
	}
	require.GreaterOrEqual(t, checked, 2, "found %d marked js blocks; the markers were lost?", checked)
	if node == "" {
		t.Log("node is not on PATH: the blocks' files named, not parsed")
	}
}
