package lint

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// issueRef is a reference to an issue by its number, with or without a
// hash.
// A reader next year cannot follow one of our issue numbers: a comment
// says what the code is and why instead.
var issueRef = regexp.MustCompile(`(?i)\bissues?\s+#?[0-9]+`)

// externalRepo ends a line's text just before an issue reference that
// quotes another project's record: its repository ("owner/name issue N",
// or "github.com/owner/name issue N").
var externalRepo = regexp.MustCompile(`[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\s+$`)

// historyName is a name that records when or why something was written
// rather than what it is: api27, seed001, exact2's kin, phase2, wave3.
var historyName = regexp.MustCompile(`(?i)(api|seed|wave|phase|exact|issue|perf)_?[0-9]+`)

// digitSuffix is a file name segment with a single digit appended to a
// word (tables2, sdk2): a second part of something, named by its order.
var digitSuffix = regexp.MustCompile(`[a-z][0-9]$`)

// subjectDigits are file name segments whose trailing digit is part of
// what they name.
var subjectDigits = map[string]bool{"utf8": true, "http2": true, "sha1": true, "md5": true, "s3": true}

// issueRefs returns the issue-number references of src, one line each,
// leaving out those that name another project's repository.
func issueRefs(src string) []string {
	var found []string
	for _, line := range strings.Split(src, "\n") {
		for _, loc := range issueRef.FindAllStringIndex(line, -1) {
			if externalRepo.MatchString(line[:loc[0]]) {
				continue
			}
			found = append(found, strings.TrimSpace(line))
			break
		}
	}
	return found
}

// historyFileName reports whether a Go file's name carries a history
// marker: a history word with a number, or a single digit appended to a
// word. Build constraints (_amd64, _test) are not part of the name.
func historyFileName(name string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
	if historyName.MatchString(base) {
		return true
	}
	for _, seg := range strings.Split(base, "_") {
		if digitSuffix.MatchString(seg) && !subjectDigits[seg] {
			return true
		}
	}
	return false
}

// historyIdents returns the identifiers of src that carry a history
// marker (api27Env, TestSeed001), and test functions whose name ends in a
// single digit appended to a word (TestTables2).
func historyIdents(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var found []string
	prevFunc := false
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT {
			if historyName.MatchString(lit) {
				found = append(found, lit)
			} else if prevFunc && testFunc.MatchString(lit) {
				found = append(found, lit)
			}
		}
		prevFunc = tok == token.FUNC
	}
	return found
}

// testFunc is a test, benchmark or fuzz target named with a single digit
// appended to a word.
var testFunc = regexp.MustCompile(`^(Test|Benchmark|Fuzz)\w*[a-z][0-9]$`)

// TestNamesBySubject: no Go file cites one of our issues by number, and
// no Go file, identifier or test is named by its history (api27_env,
// seed001, tables2) instead of its subject. Files under testdata are
// fixtures that may quote other projects' records and are not read.
func TestNamesBySubject(t *testing.T) {
	dir := root(t)
	var bad []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if historyFileName(name) {
			bad = append(bad, rel+": file named by its history")
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range issueRefs(string(src)) {
			bad = append(bad, rel+": issue number: "+line)
		}
		for _, id := range historyIdents(src) {
			bad = append(bad, rel+": identifier named by its history: "+id)
		}
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, bad, "name things by what they are, not by the issue or pass that made them")
}

func TestIssueRefs(t *testing.T) {
	// The references are built by concatenation so that this file does
	// not hold one.
	for _, tc := range []struct {
		name string
		src  string
		want int
	}{
		{"ours", "// Built lazily (" + "issue" + " 25).", 1},
		{"ours with a hash", "// See " + "Issue" + " #6.", 1},
		{"ours capitalised at the start", "// " + "Issue" + " 21, batches: ...", 1},
		{"plural", "// (" + "issues" + " 16 and 19)", 1},
		{"another project's", "// (aws/aws-sdk-js " + "issue" + " 46)", 0},
		{"another project's on github.com", "// github.com/cirello-io/dynamolock " + "issue" + " 120", 0},
		{"a pull request reference", "// guregu/dynamo#88", 0},
		{"no number", "// the design's issues, by kind", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Len(t, issueRefs(tc.src), tc.want, "src %q", tc.src)
		})
	}
}

func TestHistoryNames(t *testing.T) {
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"messages_exact2.go", true},
		{"api27_env_test.go", true},
		{"seed001_test.go", true},
		{"tables2_test.go", true},
		{"messages_indexes.go", false},
		{"prefetch_amd64.go", false},
		{"vector_kernel_amd64.go", false},
		{"s3dir.go", false},
		{"wire_utf8.go", false},
	} {
		require.Equal(t, tc.want, historyFileName(tc.file), "file %s", tc.file)
	}
	src := []byte("package p\nfunc newAPI27Env() {}\nfunc TestSeed001(t *T) {}\nfunc TestTables2(t *T) {}\nfunc TestContentType11(t *T) {}\nvar part1 = 1\n")
	require.Equal(t, []string{"newAPI27Env", "TestSeed001", "TestTables2"}, historyIdents(src))
}
