package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goFileRE is a Go file named in prose: "op_items.go", "storage/itree.go".
var goFileRE = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_]+\.go\b`)

// TestDocFilesExist: every Go file a package's doc.go names exists: in
// the package, at the path it gives (from the repository's root or from
// one of the roots packages live under), or, named bare, somewhere in
// the repository. A doc.go explains concepts and points at the files
// that hold them; a file renamed or removed fails here, not in a
// reader's hands.
func TestDocFilesExist(t *testing.T) {
	r := root(t)
	all := map[string]bool{} // base names of every Go file
	require.NoError(t, filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") {
			all[d.Name()] = true
		}
		return nil
	}))
	docs := docGoFiles(t, r)
	require.NotEmpty(t, docs)
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		require.NoError(t, err)
		dir := filepath.Dir(doc)
		for _, name := range goFileRE.FindAllString(string(src), -1) {
			name = strings.TrimLeft(name, "./")
			if !strings.Contains(name, "/") {
				if !exists(filepath.Join(dir, name)) && !all[name] {
					t.Errorf("%s names %s, which is no Go file of the repository", doc, name)
				}
				continue
			}
			found := false
			for _, base := range []string{r, filepath.Join(r, "internal"), filepath.Join(r, "emulator"), filepath.Join(r, "emulator", "internal"), dir, filepath.Dir(dir)} {
				if exists(filepath.Join(base, name)) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s names %s, which does not exist", doc, name)
			}
		}
	}
}

// TestDocFileListsComplete: a doc.go with a "# Files" section names every
// Go file of its package (tests aside), so a list of files by concern
// stays a map of the whole package, not of the files there were when it
// was written.
func TestDocFileListsComplete(t *testing.T) {
	r := root(t)
	for _, p := range docGoFiles(t, r) {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		if !strings.Contains(string(src), "\n// # Files\n") {
			continue
		}
		named := map[string]bool{}
		for _, name := range goFileRE.FindAllString(string(src), -1) {
			named[filepath.Base(name)] = true
		}
		files, err := filepath.Glob(filepath.Join(filepath.Dir(p), "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			base := filepath.Base(f)
			if base == "doc.go" || strings.HasSuffix(base, "_test.go") {
				continue
			}
			if !named[base] {
				rel, _ := filepath.Rel(r, p)
				t.Errorf("%s lists the package's files but not %s", rel, base)
			}
		}
	}
}

// docGoFiles returns the doc.go files of the repository at r, testdata
// and node_modules left out.
func docGoFiles(t *testing.T, r string) []string {
	var docs []string
	require.NoError(t, filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() == "doc.go" {
			docs = append(docs, p)
		}
		return nil
	}))
	return docs
}
