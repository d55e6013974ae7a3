package lint

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOneImportName: every package is imported under one name across
// the tree, tests included: its own, or one alias everywhere (where two
// packages of one name meet in a file, one of them takes the same alias
// in every file). A reader who knows a package by one name finds it by
// that name in every file. Blank and dot imports are not names; an alias
// that spells the package's own name counts as no alias.
func TestOneImportName(t *testing.T) {
	r := root(t)
	names := map[string]map[string][]string{} // import path -> name ("": its own) -> files
	err := filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r, p)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if name == "_" || name == "." {
				continue
			}
			if name == ownName(path) {
				name = ""
			}
			if names[path] == nil {
				names[path] = map[string][]string{}
			}
			names[path][name] = append(names[path][name], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range slices.Sorted(maps.Keys(names)) {
		byName := names[path]
		if len(byName) < 2 {
			continue
		}
		var uses []string
		for _, name := range slices.Sorted(maps.Keys(byName)) {
			label := name
			if label == "" {
				label = "its own name"
			}
			uses = append(uses, label+" in "+strings.Join(byName[name], ", "))
		}
		t.Errorf("%s is imported under %d names: %s", path, len(byName), strings.Join(uses, "; "))
	}
}

// majorVersion is a module path's major version element (v2, v3, ...).
var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// ownName is the name a package of import path path declares, as Go's
// convention has it: its last element, or the one before a major version.
func ownName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if majorVersion.MatchString(last) && len(elems) > 1 {
		last = elems[len(elems)-2]
	}
	return last
}
