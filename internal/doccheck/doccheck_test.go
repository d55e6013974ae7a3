package doccheck

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// documents returns README.md and every docs/*.md, relative to root.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs, "docs/ holds no document")
	files := []string{"README.md"}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		require.NoError(t, err)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	require.NoError(t, err)
	return string(b)
}

// headingRE is a Markdown heading; fences toggle outside it.
var headingRE = regexp.MustCompile(`^#{1,6} (.*)$`)

// anchors returns the GitHub anchors of a document's headings (a second
// heading of the same text gets "-1", and so on).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		m := headingRE.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		s := slug(m[1])
		if n, ok := seen[s]; ok {
			seen[s] = n + 1
			s += "-" + strconv.Itoa(n+1)
		} else {
			seen[s] = 0
		}
		out[s] = true
	}
	return out
}

// slug is GitHub's anchor of a heading's text.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestReadmeShape: the README stays a front page, at most 400 lines, with
// a table of contents whose every entry is a heading of the README, and
// the two commands .ci/run relies on.
func TestReadmeShape(t *testing.T) {
	readme := read(t, "README.md")
	lines := strings.Count(readme, "\n")
	require.LessOrEqual(t, lines, 400, "README.md has %d lines: move reference material to docs/", lines)
	_, toc, ok := strings.Cut(readme, "\n## Contents\n")
	require.True(t, ok, "README.md has no \"## Contents\" section")
	toc, _, _ = strings.Cut(toc, "\n## ")
	entries := regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(toc, -1)
	require.GreaterOrEqual(t, len(entries), 4, "the table of contents lists %d sections", len(entries))
	have := anchors(readme)
	for _, e := range entries {
		require.True(t, have[e[1]], "the table of contents links #%s, which is no heading of README.md", e[1])
	}
	require.Contains(t, readme, "```sh\ngo run ./cmd/dynamoemu\n```", "README.md lost the command that runs the emulator")
	require.Contains(t, readme, "```sh\ngo test -race -count=1 ./...\n```", "README.md lost the command that runs the tests")
	ci := read(t, ".ci/run")
	require.Contains(t, ci, "go test -race -count=1 ./...", ".ci/run no longer runs the README's test command")
}

// linkRE is a Markdown link's target; pathRE a repository path in
// backquotes (a file with a known extension, or a directory ending in /).
var (
	linkRE = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	pathRE = regexp.MustCompile("`((?:[\\w.-]+/)+[\\w.-]*)`")
	fileRE = regexp.MustCompile(`\.(go|md|json|design|txt|sh|yml|yaml|mod)$`)
)

// repoDirs are the repository's top-level directories: a path in
// backquotes that starts with one names a file of the repository.
var repoDirs = map[string]bool{"cmd": true, "conformance": true, "conventions": true, "docs": true, "emulator": true, "internal": true, ".ci": true}

// TestLinks: every relative link of README.md and docs/ names a file of
// the repository (and a heading of it, with an anchor), every repository
// path named in backquotes exists, and nothing points outside the
// repository.
func TestLinks(t *testing.T) {
	docs := documents(t)
	heads := map[string]map[string]bool{}
	for _, d := range docs {
		heads[d] = anchors(read(t, d))
	}
	for _, d := range docs {
		text := read(t, d)
		require.NotContains(t, text, "../shared", "%s points outside the repository", d)
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if regexp.MustCompile(`^[a-z]+:`).MatchString(target) {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := d
			if path != "" {
				file = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(d), path)))
				require.False(t, strings.HasPrefix(file, ".."), "%s links %s, outside the repository", d, target)
				_, err := os.Stat(filepath.Join(root, file))
				require.NoError(t, err, "%s links %s, which does not exist", d, target)
			}
			if anchor != "" && strings.HasSuffix(file, ".md") {
				h, ok := heads[file]
				if !ok {
					h = anchors(read(t, file))
				}
				require.True(t, h[anchor], "%s links %s: no such heading in %s", d, target, file)
			}
		}
		for _, m := range pathRE.FindAllStringSubmatch(text, -1) {
			p := m[1]
			first, _, _ := strings.Cut(p, "/")
			if !repoDirs[first] || strings.Contains(p, "..") || !(fileRE.MatchString(p) || strings.HasSuffix(p, "/")) {
				continue // not a path of this repository (a user's file, a URL path)
			}
			_, err := os.Stat(filepath.Join(root, p))
			require.NoError(t, err, "%s names %s, which does not exist in the repository", d, p)
		}
	}
}

// TestPackageMap: docs/architecture.md's package table lists exactly the
// packages `go list ./...` prints.
func TestPackageMap(t *testing.T) {
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "go list ./...")
	const module = "github.com/dynamoemu/dynamoemu/"
	var listed []string
	for _, l := range strings.Fields(string(out)) {
		listed = append(listed, strings.TrimPrefix(l, module))
	}
	arch := read(t, "docs/architecture.md")
	_, section, ok := strings.Cut(arch, "\n## Packages")
	require.True(t, ok, "docs/architecture.md has no \"## Packages\" section")
	section, _, _ = strings.Cut(section, "\n## ")
	var mapped []string
	sc := bufio.NewScanner(strings.NewReader(section))
	row := regexp.MustCompile("^\\| `([^`]+)` \\|")
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			mapped = append(mapped, m[1])
		}
	}
	var missing, extra []string
	for _, p := range listed {
		if !slices.Contains(mapped, p) {
			missing = append(missing, p)
		}
	}
	for _, p := range mapped {
		if !slices.Contains(listed, p) {
			extra = append(extra, p)
		}
	}
	require.Empty(t, missing, "docs/architecture.md's package map lacks rows for these packages")
	require.Empty(t, extra, "docs/architecture.md's package map has rows for packages go list does not print")
}

// TestNoMachineFigures: the documents state no figure tied to one
// machine: no load averages, no kernel versions.
func TestNoMachineFigures(t *testing.T) {
	kernel := regexp.MustCompile(`Linux \d+\.\d+\.\d+`)
	for _, d := range documents(t) {
		text := read(t, d)
		require.NotContains(t, strings.ToLower(text), "load average", "%s quotes a load average", d)
		require.False(t, kernel.MatchString(text), "%s quotes a kernel version: %s", d, kernel.FindString(text))
	}
}

// sectionRefRE is a pointer to a document's section in a comment of the
// build and CI files: README, "Heading" or docs/NAME.md, "Heading".
var sectionRefRE = regexp.MustCompile(`(README(?:\.md)?|docs/[\w-]+\.md), "([^"]+)"`)

// TestSectionPointers: every section the Dockerfile, .ci/ and npm's
// scripts point to (README, "X"; docs/F.md, "X") is a heading of that
// document (the quoted text is the heading or its start).
func TestSectionPointers(t *testing.T) {
	files := []string{"Dockerfile", "npm/build.sh", "npm/test.sh", "cmd/dynamoemu/cold.gcflags"}
	ci, err := filepath.Glob(filepath.Join(root, ".ci", "*"))
	require.NoError(t, err)
	for _, f := range ci {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			rel, err := filepath.Rel(root, f)
			require.NoError(t, err)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	found := 0
	for _, f := range files {
		// Comment lines joined, so that a quoted heading may wrap.
		var text strings.Builder
		for _, l := range strings.Split(read(t, f), "\n") {
			if c, ok := strings.CutPrefix(strings.TrimSpace(l), "#"); ok {
				text.WriteString(strings.TrimSpace(c) + " ")
			}
		}
		for _, m := range sectionRefRE.FindAllStringSubmatch(text.String(), -1) {
			doc := m[1]
			if !strings.HasPrefix(doc, "docs/") {
				doc = "README.md"
			}
			want := slug(m[2])
			ok := false
			for a := range anchors(read(t, doc)) {
				ok = ok || strings.HasPrefix(a, want)
			}
			require.True(t, ok, "%s points to %s, %q: no such heading", f, doc, m[2])
			found++
		}
	}
	require.GreaterOrEqual(t, found, 3, "found %d section pointers; the pattern was lost?", found)
}
