// Package zstdread reads Zstandard (RFC 8878) objects with the standard
// library's decoder, which Go keeps internal (internal/zstd) and offers
// only through debug/elf: an ELF section compressed with ZSTD
// (ELFCOMPRESS_ZSTD) is decompressed by (*elf.Section).Open. NewReader
// puts an object behind such a section: an ELF header, two section
// headers and a compression header, 216 bytes made here, ahead of the
// object's own bytes, read where they are (nothing is copied).
//
// Why not github.com/klauspost/compress/zstd, which the project used
// before: its packages build a Castagnoli CRC table at initialisation
// (0.43 ms of the server's 5.8 ms start-up on the machine the start-up
// was measured on), paid at every start of the server for a decoder that
// only ImportTable and StartBulkPutItems' ZSTD objects use.
// internal/lint's TestServerWithoutHeavyInit keeps it out of the server.
// The tests still use it, to make objects and to check this decoder's
// output against its own.
//
// Limits, the standard library's: a frame's window is at most 8 MB (RFC
// 8878 3.1.1.1.1.2 lets a decoder set that bound), so the memory a
// decoder takes is bounded whatever a frame says; a frame that refers
// further back than 8 MB (zstd's --long and --ultra levels of large
// objects) is an error. Dictionaries are not supported (AWS's import
// takes none). Skippable frames, several frames in a row and content
// checksums are read as RFC 8878 says.
package zstdread

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
)

// Magic is the first four bytes of a Zstandard frame.
var Magic = [4]byte{0x28, 0xb5, 0x2f, 0xfd}

// headSize is the bytes ahead of the object: the ELF header (64), two
// section headers (64 each) and the compression header (24).
const headSize = 64 + 2*64 + 24

// NewReader returns a reader of the decompressed content of the size
// bytes of r, a Zstandard object (one or more frames). Errors in the
// object are errors of the reader's Read.
func NewReader(r io.ReaderAt, size int64) (io.Reader, error) {
	if size < 0 {
		return nil, errors.New("zstdread: negative size")
	}
	f, err := elf.NewFile(&prefixed{head: header(size), tail: io.NewSectionReader(r, 0, size)})
	if err != nil {
		return nil, err // not for any object: the header is ours
	}
	if len(f.Sections) != 2 {
		return nil, errors.New("zstdread: the section header was not read back")
	}
	return f.Sections[1].Open(), nil
}

// header returns the ELF file's bytes before an object of size bytes: a
// 64-bit little-endian relocatable file with two sections, the null
// section and the object's, compressed with ZSTD (its content size
// unknown: 0, which Open does not read).
func header(size int64) []byte {
	h := make([]byte, headSize)
	le := binary.LittleEndian
	// ELF header.
	copy(h, "\x7fELF")
	h[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	h[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	h[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	le.PutUint16(h[16:], uint16(elf.ET_REL))
	le.PutUint16(h[18:], uint16(elf.EM_NONE))
	le.PutUint32(h[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(h[40:], 64) // e_shoff: the section headers follow
	le.PutUint16(h[52:], 64) // e_ehsize
	le.PutUint16(h[58:], 64) // e_shentsize
	le.PutUint16(h[60:], 2)  // e_shnum
	le.PutUint16(h[62:], 0)  // e_shstrndx: no section names
	// Section header 1 (0 is the null section, all zeros): the object.
	s := h[64+64:]
	le.PutUint32(s[4:], uint32(elf.SHT_PROGBITS))
	le.PutUint64(s[8:], uint64(elf.SHF_COMPRESSED))
	le.PutUint64(s[24:], 64+2*64)         // sh_offset: the compression header
	le.PutUint64(s[32:], uint64(24+size)) // sh_size: it and the object
	le.PutUint64(s[48:], 1)               // sh_addralign
	// Compression header (Chdr64).
	c := h[64+2*64:]
	le.PutUint32(c[0:], uint32(elf.COMPRESS_ZSTD))
	le.PutUint64(c[16:], 1) // ch_addralign
	return h
}

// prefixed is head followed by tail.
type prefixed struct {
	head []byte
	tail *io.SectionReader // the object: its size bytes, io.EOF past them
}

func (p *prefixed) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("zstdread: negative offset")
	}
	n := 0
	if off < int64(len(p.head)) {
		n = copy(b, p.head[off:])
		if n == len(b) {
			return n, nil
		}
	}
	m, err := p.tail.ReadAt(b[n:], off+int64(n)-int64(len(p.head)))
	return n + m, err
}
