package persist

import (
	"os"
)

// file is what the store needs of an open file: *os.File, or a test's
// file that fails on purpose.
type file interface {
	WriteAt(b []byte, off int64) (int, error)
	ReadAt(b []byte, off int64) (int, error)
	Truncate(size int64) error
	Stat() (os.FileInfo, error)
	Close() error
	// Sync makes the file's data (and the metadata needed to read it,
	// such as its size) durable: fdatasync where there is one.
	Sync() error
}

// osFile is a file on disk.
type osFile struct{ *os.File }

func openOSFile(name string, flag int) (file, error) {
	f, err := os.OpenFile(name, flag, 0o644)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (f osFile) Sync() error { return datasync(f.File) }

// syncDir makes the entries of directory dir durable: a file created,
// renamed or removed in it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
