package persist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// The framing shared by log segments and snapshot files.
//
//	file   = header { frame }
//	header = magic(6) "DYNEMU" kind(1) 0(1) version(4) base(8) db(8) crc(4)
//	frame  = length(4) crc(4) seq(8) payload(length)
//
// All integers are little-endian. kind is 'W' for a log segment, 'S' for
// a snapshot file. version is the format version (formatVersion); a file
// of a later version is refused (ErrNewerFormat), never guessed at. base
// is the LSN of a segment's first record, or the LSN a snapshot holds
// every record up to. db, from version 3 on, is the namespace's database
// id, a random number drawn when its first file is written and carried
// by every segment and snapshot after: a file of another database is
// refused (0: a file of an earlier version, which has none). A header's
// crc covers its first 28 bytes.
//
// A frame's crc is CRC-32C (Castagnoli) over its length, its seq and its
// payload, so a torn write, a flipped bit, a zeroed page or a length that
// points elsewhere all fail it. seq is the record's LSN in a segment (one
// more than the frame before) and the frame's number in a snapshot file.
// A frame's payload is never empty, so zeros read as a frame are invalid.
//
// A log segment's payload is, from version 2 on, varint(the record's
// commit time in Unix milliseconds, Options.Clock) followed by the
// record (storage.AppendRecord); in version 1 the record alone. From
// version 3 on, a segment the log moved on from ends with a seal: a
// frame numbered 0 (no record is) whose payload is sealTag and
// uvarint(the first LSN of the segment after it), written once that
// segment's creation is durable. A sealed segment whose successor is not
// there is a missing segment, not the end of the log. A snapshot file of
// version 2 or later may hold sidecar frames (snapfile.go); version 1
// has none. A snapshot of version 4 holds its items as chunks of stored
// records and its indexes' order (snapfile.go); segments have no version
// 4. This build writes snapshots of version 4, segments of version 3
// (side files, sidefiles.go, version 2) and reads all four versions: a
// segment of a version before 3 is never appended to (the log starts a
// new one), so a segment is of one version throughout.

// Format versions.
const (
	// versionTimes: log records carry their commit time; snapshots may
	// carry sidecar frames.
	versionTimes = 2
	// versionSealed: headers carry the database id; segments are sealed.
	versionSealed = 3
	// versionChunks: snapshots hold items as stored records in chunks,
	// and each index's order (snapfile.go).
	versionChunks = 4
)

// Format constants.
const (
	formatVersion = versionChunks
	// segmentVersion is the version log segments are written in: version
	// 4 changed only snapshots, so a segment a build before it wrote is
	// one this build appends to.
	segmentVersion = versionSealed
	// sideVersion is the version side files are written in: what
	// version 3 adds is the log's.
	sideVersion = versionTimes
	headerSize  = 32
	frameHeader = 16
	// maxFrame bounds a frame's payload (the length field is 32 bits). A
	// record larger than this cannot be logged: RestoreTable of a table
	// of more than 1 GiB of items fails when persisted.
	maxFrame = 1 << 30
)

// File kinds.
const (
	kindSegment  = 'W'
	kindSnapshot = 'S'
)

var (
	magic = [6]byte{'D', 'Y', 'N', 'E', 'M', 'U'}
	// crcTab is the Castagnoli table, made on first use: MakeTable builds
	// the slicing tables, which a server without -dbPath never needs.
	crcTab = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })
)

// Format errors.
var (
	// ErrNewerFormat: a file was written by a later version of the format
	// than this build reads.
	ErrNewerFormat = errors.New("persist: file written by a newer dynamoemu (format version too new)")
	// ErrCorrupt: a file does not hold what its checksums say.
	ErrCorrupt = errors.New("persist: corrupt file")
)

// fileHeader is a file's header.
type fileHeader struct {
	kind    byte
	version uint32
	base    uint64
	db      uint64 // the database id (version 3 on; 0: none)
}

func appendHeader(dst []byte, h fileHeader) []byte {
	dst = append(dst, magic[:]...)
	dst = append(dst, h.kind, 0)
	dst = binary.LittleEndian.AppendUint32(dst, h.version)
	dst = binary.LittleEndian.AppendUint64(dst, h.base)
	dst = binary.LittleEndian.AppendUint64(dst, h.db)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[len(dst)-28:], crcTab()))
}

// parseHeader reads a file header of kind kind.
func parseHeader(b []byte, kind byte) (fileHeader, error) {
	if len(b) < headerSize {
		return fileHeader{}, fmt.Errorf("%w: header of %d bytes", ErrCorrupt, len(b))
	}
	b = b[:headerSize]
	if [6]byte(b[:6]) != magic || b[6] != kind {
		return fileHeader{}, fmt.Errorf("%w: not a dynamoemu %s file (bad magic)", ErrCorrupt, kindName(kind))
	}
	if crc32.Checksum(b[:28], crcTab()) != binary.LittleEndian.Uint32(b[28:]) {
		return fileHeader{}, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	h := fileHeader{kind: b[6], version: binary.LittleEndian.Uint32(b[8:]), base: binary.LittleEndian.Uint64(b[12:]), db: binary.LittleEndian.Uint64(b[20:])}
	if h.version > formatVersion {
		return fileHeader{}, fmt.Errorf("%w: format version %d, this build reads up to %d", ErrNewerFormat, h.version, formatVersion)
	}
	if h.version == 0 {
		return fileHeader{}, fmt.Errorf("%w: format version 0", ErrCorrupt)
	}
	if h.version < versionSealed && h.db != 0 {
		return fileHeader{}, fmt.Errorf("%w: a database id in a version %d header", ErrCorrupt, h.version)
	}
	return h, nil
}

func kindName(kind byte) string {
	if kind == kindSnapshot {
		return "snapshot"
	}
	return "log segment"
}

// frameCRC is the checksum of a frame: its length, seq and payload.
func frameCRC(hdr []byte, payload []byte) uint32 {
	c := crc32.Update(0, crcTab(), hdr[0:4])
	c = crc32.Update(c, crcTab(), hdr[8:16])
	return crc32.Update(c, crcTab(), payload)
}

// sealFrame fills in the header of frame, whose first frameHeader bytes
// are reserved for it and the rest is the payload.
func sealFrame(frame []byte, seq uint64) {
	binary.LittleEndian.PutUint32(frame[0:], uint32(len(frame)-frameHeader))
	binary.LittleEndian.PutUint64(frame[8:], seq)
	binary.LittleEndian.PutUint32(frame[4:], frameCRC(frame[:frameHeader], frame[frameHeader:]))
}

// frameReader reads frames from r, which is positioned after a header.
type frameReader struct {
	r    io.Reader
	off  int64 // offset in the file of the next frame
	size int64 // the file's size: no frame reaches past it
	hdr  [frameHeader]byte
	buf  []byte
	// alloc, when set, makes the memory a frame is read into.
	alloc func(n int) []byte
}

// errTorn: the input ended inside a frame, or a frame is malformed or
// fails its checksum. The frame reader cannot tell a torn write from
// damage; the caller decides by where it happens.
var errTorn = errors.New("torn or damaged frame")

// next returns the next frame's seq and payload (valid until the next
// call, unless detached), io.EOF at a clean end, or an error wrapping
// errTorn with the reason.
func (fr *frameReader) next() (uint64, []byte, error) {
	n, err := io.ReadFull(fr.r, fr.hdr[:])
	if err == io.EOF {
		return 0, nil, io.EOF
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %d bytes of a frame header", errTorn, n)
	}
	length := binary.LittleEndian.Uint32(fr.hdr[0:])
	if length == 0 || length > maxFrame || fr.off+frameHeader+int64(length) > fr.size {
		return 0, nil, fmt.Errorf("%w: frame length %d", errTorn, length)
	}
	if cap(fr.buf) < int(length) {
		if fr.alloc != nil {
			fr.buf = fr.alloc(int(length))
		} else {
			fr.buf = make([]byte, length)
		}
	}
	fr.buf = fr.buf[:length]
	if n, err := io.ReadFull(fr.r, fr.buf); err != nil {
		return 0, nil, fmt.Errorf("%w: %d of %d bytes of a frame", errTorn, n, length)
	}
	if frameCRC(fr.hdr[:], fr.buf) != binary.LittleEndian.Uint32(fr.hdr[4:]) {
		return 0, nil, fmt.Errorf("%w: checksum mismatch", errTorn)
	}
	fr.off += frameHeader + int64(length)
	return binary.LittleEndian.Uint64(fr.hdr[8:]), fr.buf, nil
}

// detach leaves the payload next returned last to the caller for good:
// the next frame is read into memory of its own.
func (fr *frameReader) detach() { fr.buf = nil }

// sealTag begins a seal's payload (a frame numbered 0 at the end of a
// segment of version 3 or later).
const sealTag = 'Z'

// appendSeal appends the frame that seals a segment whose successor's
// first record is next.
func appendSeal(dst []byte, next uint64) []byte {
	at := len(dst)
	dst = append(dst, make([]byte, frameHeader)...)
	dst = append(dst, sealTag)
	dst = binary.AppendUvarint(dst, next)
	sealFrame(dst[at:], 0)
	return dst
}

// parseSeal reads a seal's payload: the first record of the segment
// after the sealed one.
func parseSeal(p []byte) (uint64, bool) {
	if len(p) < 2 || p[0] != sealTag {
		return 0, false
	}
	next, k := binary.Uvarint(p[1:])
	return next, k > 0 && 1+k == len(p) && next > 0
}
