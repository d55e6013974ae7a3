package doccheck

import (
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// curlExamples returns the curl commands of a document's sh blocks, a
// command continued with a trailing backslash joined into one line and
// a trailing comment cut.
func curlExamples(text string) []string {
	var out []string
	block := regexp.MustCompile("(?s)```sh\n(.*?)```")
	for _, b := range block.FindAllStringSubmatch(text, -1) {
		joined := strings.ReplaceAll(b[1], "\\\n", " ")
		for _, l := range strings.Split(joined, "\n") {
			l = strings.TrimSpace(l)
			if !strings.HasPrefix(l, "curl ") {
				continue
			}
			if i := strings.Index(l, " #"); i > 0 && strings.Count(l[:i], "'")%2 == 0 {
				l = strings.TrimSpace(l[:i])
			}
			out = append(out, l)
		}
	}
	return out
}

// TestCurlExamples: every curl example of README.md and docs/ runs, as
// written but for the port, against a server and gets a 2xx answer.
func TestCurlExamples(t *testing.T) {
	curl, err := exec.LookPath("curl")
	require.NoError(t, err, "the curl examples are run with curl (apt-get install curl)")
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	srv := httptest.NewServer(e.Handler())
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	n := 0
	for _, d := range documents(t) {
		for _, c := range curlExamples(read(t, d)) {
			n++
			cmd := strings.Replace(c, "curl ", curl+" -sS -o /dev/null -w '%{http_code}' ", 1)
			cmd = strings.ReplaceAll(cmd, "localhost:8000", host)
			out, err := exec.Command("sh", "-c", cmd).CombinedOutput()
			require.NoError(t, err, "%s: %s\n%s", d, c, out)
			require.True(t, strings.HasPrefix(string(out), "2"), "%s: %s answered HTTP %s", d, c, out)
		}
	}
	require.GreaterOrEqual(t, n, 5, "found %d curl examples; the extraction broke?", n)
}
