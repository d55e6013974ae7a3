package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Side files: what the emulator keeps of a namespace beside its DB (the
// on-demand backups and the point-in-time recovery histories of its
// tables), in a subdirectory of the namespace's directory, in the
// formats of the DB's own files:
//
//	<dir>/<namespace>/<sub>/<name>             table files: a snapshot file
//	                                           (snapfile.go) of a DB holding
//	                                           one table and metadata
//	<dir>/<namespace>/<sub>/<prefix>-<seq>.alog frame logs (framelog.go):
//	                                           segments framed as the log's,
//	                                           of kind 'A', payloads opaque
//
// persist does not know what they mean: the emulator names them, writes
// them and reads them back. A namespace's side files are not part of its
// DB's recovery (a damaged one does not stop the namespace loading) and
// not compacted with it.

// SideDir is a subdirectory of a namespace's directory for side files.
// Its methods are safe for concurrent use on different files.
type SideDir struct {
	dir  string
	opts *Options
}

// SideDir returns the side-file directory sub of namespace name (created
// when a file is first written in it). sub is a plain name.
func (s *Store) SideDir(name, sub string) (*SideDir, error) {
	if !validName(name) || !validName(sub) {
		return nil, fmt.Errorf("%w: %q/%q", ErrBadName, name, sub)
	}
	return &SideDir{dir: filepath.Join(s.dir, name, sub), opts: &s.opts}, nil
}

// Dir is the directory's path.
func (d *SideDir) Dir() string { return d.dir }

// Durable reports whether the store's durability mode syncs what is
// written (Sync, Group) rather than only writing it (None).
func (d *SideDir) Durable() bool { return d.opts.Durability != None }

// WriteTable writes table ts and the metadata meta to the table file
// name, replacing it: into a temporary file, made durable, renamed into
// place and the directory synced, so the file is there whole or not at
// all. It returns the file's size. The table's items are read from ts
// (copy-on-write: ts does not change while it is written).
func (d *SideDir) WriteTable(name string, ts *storage.TableSnapshot, meta map[string][]byte) (int64, error) {
	if !validFile(name) {
		return 0, fmt.Errorf("%w: %q", ErrBadName, name)
	}
	db := storage.NewDB(nil)
	if _, err := db.RestoreTable(ts.Name(), ts.ID(), ts); err != nil {
		return 0, fmt.Errorf("persist: table file %s: %w", name, err)
	}
	for k, v := range meta {
		if err := db.SetMeta(k, v); err != nil {
			return 0, fmt.Errorf("persist: table file %s: %w", name, err)
		}
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return 0, fmt.Errorf("persist: table file %s: %w", name, err)
	}
	var a *appender
	err := replaceFile(d.opts.newFile, d.dir, name, func(f file) error {
		a = &appender{f: f, hdr: fileHeader{version: sideVersion}}
		return a.writeAll(db.Snapshot(nil), 0, nil)
	})
	if err != nil {
		return 0, fmt.Errorf("persist: writing table file %s: %w", name, err)
	}
	return a.off, nil
}

// ReadTable reads the table file name back: its table and its metadata.
// A file that does not read back whole is an error wrapping ErrCorrupt
// (or ErrNewerFormat), never a partial table.
func (d *SideDir) ReadTable(name string) (*storage.TableSnapshot, map[string][]byte, error) {
	if !validFile(name) {
		return nil, nil, fmt.Errorf("%w: %q", ErrBadName, name)
	}
	db := storage.NewDB(nil)
	if _, _, err := loadSnapshot(db, filepath.Join(d.dir, name), false, nil); err != nil {
		return nil, nil, fmt.Errorf("persist: table file %s: %w", name, err)
	}
	tables := db.Tables()
	if len(tables) != 1 {
		return nil, nil, fmt.Errorf("persist: table file %s: %w: %d tables", name, ErrCorrupt, len(tables))
	}
	meta := map[string][]byte{}
	for _, k := range db.MetaKeys() {
		meta[k] = db.Meta(k)
	}
	return tables[0].Snapshot(), meta, nil
}

// List returns the names of the files in the directory that end in
// suffix, in order (none when it does not exist), and removes the
// temporary files of writes that did not finish.
func (d *SideDir) List(suffix string) ([]string, error) {
	ents, err := os.ReadDir(d.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		switch n := e.Name(); {
		case strings.HasSuffix(n, ".tmp"):
			os.Remove(filepath.Join(d.dir, n))
		case strings.HasSuffix(n, suffix) && !e.IsDir():
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// Remove removes file name, durably; a file that is not there is no error.
func (d *SideDir) Remove(name string) error {
	if !validFile(name) {
		return fmt.Errorf("%w: %q", ErrBadName, name)
	}
	if err := os.Remove(filepath.Join(d.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := syncDir(d.dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// validFile reports whether name is a plain file name of a side
// directory: a namespace-name character set plus '.', not "." or "..".
func validFile(name string) bool {
	if name == "" || len(name) > 200 || name[0] == '.' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
