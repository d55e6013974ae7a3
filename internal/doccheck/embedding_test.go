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

// fenceRE is a fenced block of a Markdown document: its language and
// its text.
var fenceRE = regexp.MustCompile("(?s)```(\\w*)\n(.*?)```")

// fenced is one fenced block: its language, its text and where it
// starts in its section.
type fenced struct {
	lang, text string
	at         int
}

// section returns the text of the section of doc under heading (a
// "## " line), up to the next "## " heading.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	require.True(t, ok, "no heading %q", heading)
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// blocks returns the fenced blocks of text, in order.
func blocks(text string) []fenced {
	var out []fenced
	for _, m := range fenceRE.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, fenced{lang: text[m[2]:m[3]], text: text[m[4]:m[5]], at: m[0]})
	}
	return out
}

// TestEmbeddingStepByStep: docs/embedding.md's steps for a module of
// one's own, run as written in a new directory: its first sh block
// (a new module, required from the clone by a replace), its Go file
// saved under the name the text gives it, then its second sh block
// (go mod tidy, go test), whose test must pass. The clone is this
// checkout: "../dynamoemu" is replaced by its path, so that the build
// cache the repository's own build filled serves the emulator's
// packages. The go command runs as a user's does (no GOFLAGS: with
// -mod=mod, go test would add the requirements itself and a missing go
// mod tidy would go unseen; no workspace), with the environment's
// GOPROXY, offline when the module cache holds what the repository's
// build downloaded; the checkout's go.sum is put in the new module
// before go mod tidy, so that its checksums, not the checksum database,
// vouch for the cached modules. The README's Go block is the same
// file.
func TestEmbeddingStepByStep(t *testing.T) {
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "the steps run the go command")
	clone, err := filepath.Abs(root)
	require.NoError(t, err)

	steps := section(t, read(t, "docs/embedding.md"), "## Step by step")
	bs := blocks(steps)
	var langs []string
	for _, b := range bs {
		langs = append(langs, b.lang)
	}
	require.Equal(t, []string{"sh", "go", "sh"}, langs, "docs/embedding.md's steps: a sh block, the test file, a sh block")
	setup, file, run := bs[0], bs[1], bs[2]
	names := regexp.MustCompile("`(\\w+_test\\.go)`").FindAllStringSubmatch(steps[:file.at], -1)
	require.NotEmpty(t, names, "docs/embedding.md names no _test.go file before its Go block")
	name := names[len(names)-1][1]
	require.True(t, strings.HasPrefix(file.text, "package "), "the test file has its package clause")
	require.Contains(t, setup.text, "../dynamoemu", "the setup names the clone as ../dynamoemu")
	mkdir := regexp.MustCompile(`(?m)^mkdir (\S+) && cd (\S+)$`).FindStringSubmatch(setup.text)
	require.True(t, mkdir != nil && mkdir[1] == mkdir[2], "the setup makes the module's directory and enters it")
	module := regexp.MustCompile(`(?m)^go mod init (\S+)$`).FindStringSubmatch(setup.text)
	require.NotNil(t, module, "the setup makes a module (go mod init)")

	readme := blocks(section(t, read(t, "README.md"), "## Embedding in a Go test"))
	require.NotEmpty(t, readme)
	require.Equal(t, file.text, readme[0].text, "README.md's embedding example is docs/embedding.md's test file")

	script := "set -e\n" + strings.ReplaceAll(setup.text, "../dynamoemu", clone) +
		"cp " + filepath.Join(clone, "go.sum") + " go.sum\n" +
		"cat > " + name + " <<'DOCCHECK_EOF'\n" + file.text + "DOCCHECK_EOF\n" +
		run.text
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off",
		"PATH="+filepath.Dir(goBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "docs/embedding.md's steps:\n%s\n%s", script, out)
	require.Regexp(t, `(?m)^ok\s+`+regexp.QuoteMeta(module[1])+`\s`, string(out), "go test did not pass the module's test")
	mod, err := os.ReadFile(filepath.Join(dir, mkdir[1], "go.mod"))
	require.NoError(t, err)
	require.Contains(t, string(mod), "github.com/aws/aws-sdk-go-v2/service/dynamodb ", "go mod tidy required the SDK")
}
