package transfers

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/dynamoemu/dynamoemu/emulator/internal/ion"
	"github.com/dynamoemu/dynamoemu/emulator/internal/zstdread"
)

// The input objects of ImportTable (imports.go) and StartBulkPutItems
// (bulk_input.go): one opener for their three compressions (AWS's
// InputCompressionType: NONE, GZIP, ZSTD) and one reader of Ion objects.
// ZSTD is read with klauspost/compress's decoder (zstdread), whose
// memory is bounded: a frame that refers back more than 8 MB is an error.

// errNotCompressed: an object is not in the compression asked for.
var errNotCompressed = errors.New("not compressed as InputCompressionType says")

// openInput opens the object at path, decompressed as compression
// ("NONE", "GZIP", "ZSTD") says. An object whose header is not the
// compression's is errNotCompressed, wrapped with its name.
func openInput(path, compression string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	switch compression {
	case "GZIP":
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, errors.Join(errNotCompressed, errors.New(filepath.Base(path)+" is not GZIP-compressed"))
		}
		return readCloser{zr, func() { zr.Close(); f.Close() }}, nil
	case "ZSTD":
		var magic [4]byte
		if _, err := f.ReadAt(magic[:], 0); err != nil || magic != zstdread.Magic {
			f.Close()
			return nil, errors.Join(errNotCompressed, errors.New(filepath.Base(path)+" is not ZSTD-compressed"))
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		zr, err := zstdread.NewReader(f, st.Size())
		if err != nil {
			f.Close()
			return nil, err
		}
		return readCloser{zr, func() { f.Close() }}, nil
	}
	return f, nil
}

// readCloser is a decompressing reader and what closes it and its file.
type readCloser struct {
	io.Reader
	close func()
}

func (r readCloser) Close() error { r.close(); return nil }

// readIonObject reads an Ion object whole (Ion's values may span lines,
// and AWS's import docs show a whole file as one list) and calls fn for
// each record, as ion.ReadItems does. A read error (a damaged
// compressed object) is one record's error, after the records read.
func readIonObject(in io.Reader, fn func(ion.Record)) {
	data, err := io.ReadAll(in)
	ion.ReadItems(data, func(r ion.Record) bool { fn(r); return true })
	if err != nil {
		fn(ion.Record{Err: err})
	}
}
