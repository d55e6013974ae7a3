package lint

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestPackageDocs: every package of ours but a command opens with a
// package comment whose first sentence names it ("Package storage is
// ..."): what it owns, before any file of it is read (bbolt's doc.go;
// storage/doc.go is ours). A heading or a blank line before the first
// paragraph leaves the package without one.
func TestPackageDocs(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Name,Doc", "./...")
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	for dec := json.NewDecoder(strings.NewReader(string(out))); dec.More(); {
		var p struct{ ImportPath, Name, Doc string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.Name == "main" {
			continue
		}
		if !strings.HasPrefix(p.Doc, "Package "+p.Name+" ") {
			t.Errorf("%s has no package comment that opens \"Package %s\" (a doc.go: what it owns, its nouns, its caveats); its synopsis is %q",
				p.ImportPath, p.Name, p.Doc)
		}
	}
}
