package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// checkoutVersion names the commit checked out in dir from the files of
// dir/.git that name it (HEAD, refs/, packed-refs: what .dockerignore lets
// into an image's build context, without the objects or the git command):
// a tag on it (the last by name, if several), else "devel-" and the
// commit's first 12 hex digits. A tag made with -a and not yet packed
// (a loose ref to the tag's object, which only the objects peel) is not
// seen; a clone's tags are packed with their commits.
func checkoutVersion(dir string) (string, error) {
	gitDir := filepath.Join(dir, ".git")
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", err
	}
	commit := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(commit, "ref: "); ok {
		if commit, err = resolveRef(gitDir, ref); err != nil {
			return "", err
		}
	}
	if !isHash(commit) {
		return "", fmt.Errorf("%s/HEAD names %q, not a commit", gitDir, commit)
	}
	tags, err := tagsAt(gitDir, commit)
	if err != nil {
		return "", err
	}
	if len(tags) > 0 {
		sort.Strings(tags)
		return tags[len(tags)-1], nil
	}
	return "devel-" + commit[:12], nil
}

// isHash reports whether s is an object name: 40 (SHA-1) or 64 (SHA-256)
// lower-case hex digits.
func isHash(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}

// resolveRef is the commit ref (refs/heads/main) names: its loose file,
// else its line of packed-refs.
func resolveRef(gitDir, ref string) (string, error) {
	if b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref))); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	var found string
	err := packedRefs(gitDir, func(hash, name, _ string) {
		if name == ref {
			found = hash
		}
	})
	if err == nil && found == "" {
		err = fmt.Errorf("%s: no ref %s", gitDir, ref)
	}
	return found, err
}

// tagsAt lists the tags on commit: loose refs/tags files naming it, and
// packed-refs' tags naming it or peeled to it.
func tagsAt(gitDir, commit string) ([]string, error) {
	var tags []string
	root := filepath.Join(gitDir, "refs", "tags")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(b)) == commit {
			rel, _ := filepath.Rel(root, p)
			tags = append(tags, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	err = packedRefs(gitDir, func(hash, name, peeled string) {
		if tag, ok := strings.CutPrefix(name, "refs/tags/"); ok && (hash == commit || peeled == commit) {
			tags = append(tags, tag)
		}
	})
	return tags, err
}

// packedRefs calls each with every ref of packed-refs ("HASH NAME", and
// the commit an annotated tag peels to on the "^HASH" line after it); no
// file is none.
func packedRefs(gitDir string, each func(hash, name, peeled string)) error {
	f, err := os.Open(filepath.Join(gitDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var hash, name string
	flush := func(peeled string) {
		if name != "" {
			each(hash, name, peeled)
		}
		name = ""
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "^"):
			flush(strings.TrimPrefix(line, "^"))
		default:
			flush("")
			hash, name, _ = strings.Cut(line, " ")
		}
	}
	flush("")
	return sc.Err()
}
