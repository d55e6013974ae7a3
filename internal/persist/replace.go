package persist

import (
	"os"
	"path/filepath"
)

// replaceFile makes dir/name hold what write writes into the file open
// gives, durably and whole or not at all: written to dir/name.tmp, synced,
// closed, renamed into place and the directory synced, the temporary file
// removed when any step fails. Snapshots, table files and store state
// are written so.
func replaceFile(open func(name string, flag int) (file, error), dir, name string, write func(file) error) error {
	path := filepath.Join(dir, name)
	tmp := path + ".tmp"
	f, err := open(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
