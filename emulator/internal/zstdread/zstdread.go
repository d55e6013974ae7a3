// Package zstdread reads Zstandard (RFC 8878) objects: the ZSTD input
// objects of ImportTable and StartBulkPutItems. It is a thin wrapper over
// github.com/klauspost/compress/zstd, set up the one way an import wants:
// one goroutine (the decoder reads in the caller's Read, starting
// nothing), content checksums checked, and memory bounded whatever a
// frame says.
//
// Start-up cost, under the 1 ms an import can spare: making a decoder
// and reading a 1 KB object through it takes 0.01 ms, 10.9 KB and 20
// allocations when warm (BenchmarkStart) and 0.16 to 0.21 ms the first
// time in a process. Linking the package adds about 0.4 ms to every start
// of the server: cmd/dynamoemu's BenchmarkStartup, 40x -count 3, against
// the binary without it, init-ms 0.94-1.27 -> 1.36-1.64, cpu-ms 6.3-7.2
// -> 6.9-7.5 (GODEBUG=inittrace=1: klauspost's internal/snapref 0.18 to
// 0.27 ms, internal/cpuinfo 0.02 ms). All on a shared 2-core AMD EPYC
// build machine.
//
// Limits: a frame's window is at most 8 MB (RFC 8878 3.1.1.1.1.2 lets a
// decoder set that bound), so a decoder takes at most about 16 MB of
// history. A frame that declares a larger window (zstd's --long and
// --ultra levels of large objects), or a single-segment frame of more
// than 8 MB, is an error of Read. Dictionaries are not supported (AWS's
// import takes none). Skippable frames, several frames in a row and
// content checksums are read as RFC 8878 says.
package zstdread

import (
	"errors"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Magic is the first four bytes of a Zstandard frame.
var Magic = [4]byte{0x28, 0xb5, 0x2f, 0xfd}

// maxWindow bounds a frame's window, and so a decoder's memory.
const maxWindow = 8 << 20

// NewReader returns a reader of the decompressed content of the size
// bytes of r, a Zstandard object (one or more frames). Errors in the
// object are errors of the reader's Read. The reader holds no goroutine
// and nothing to close: one dropped half-read is the garbage collector's.
func NewReader(r io.ReaderAt, size int64) (io.Reader, error) {
	if size < 0 {
		return nil, errors.New("zstdread: negative size")
	}
	dec, err := zstd.NewReader(io.NewSectionReader(r, 0, size),
		zstd.WithDecoderConcurrency(1), // synchronous: no goroutine to stop
		zstd.WithDecoderMaxWindow(maxWindow),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, err // not for any object: the options are ours
	}
	return &reader{dec: dec}, nil
}

// reader is a decoder that releases its buffers at the object's end or
// at its first error.
type reader struct {
	dec *zstd.Decoder // nil once closed
	err error         // the error that closed it
}

func (r *reader) Read(p []byte) (int, error) {
	if r.dec == nil {
		return 0, r.err
	}
	n, err := r.dec.Read(p)
	if err != nil {
		r.dec.Close()
		r.dec, r.err = nil, err
	}
	return n, err
}
