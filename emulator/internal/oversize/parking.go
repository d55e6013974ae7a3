package oversize

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"os"
)

// ErrParking says records a Parking held could not be written or read
// back (a disk fault): the request has no answer but an internal error.
var ErrParking = errors.New("oversize: parked records do not read back")

// Parking holds records (a request's names or keys) until the request's
// answer says whether it needs them: compressed one after another into a
// file of the system's temporary directory, unlinked once made. Kept in
// memory, compressed, names of random letters and digits took the server
// to 2.4 times the bytes of a 15 MB request alone and 1.9 eight at once,
// over the memory test's bounds of 1.5 and 1; in a file, memory does not
// depend on how well they compress. Where no file can be made, they are
// kept compressed in memory. The zero Parking is empty.
type Parking struct {
	n    int           // records parked
	zw   *flate.Writer // made at the first record parked, onto file or mem
	file *os.File      // nil: no record parked, or no file could be made
	name string        // the file's name while it could not be unlinked
	mem  bytes.Buffer  // the records compressed when no file could be made
	err  error         // the first write that failed (ErrParking)
}

// parkDir is the directory of parking's files ("": os.TempDir; a test
// names one that does not exist).
var parkDir = ""

// Park keeps rec.
func (p *Parking) Park(rec []byte) {
	if p.zw == nil {
		p.open()
	}
	var n [binary.MaxVarintLen64]byte
	if _, err := p.zw.Write(n[:binary.PutUvarint(n[:], uint64(len(rec)))]); err != nil && p.err == nil {
		p.err = errors.Join(ErrParking, err)
	}
	if _, err := p.zw.Write(rec); err != nil && p.err == nil {
		p.err = errors.Join(ErrParking, err)
	}
	p.n++
}

// open makes the file the records go to (or, when none can be made,
// keeps them in mem), and the writer that compresses them into it.
func (p *Parking) open() {
	var sink io.Writer = &p.mem
	if f, err := os.CreateTemp(parkDir, "dynamoemu-parked-*"); err == nil {
		p.file, sink = f, f
		if os.Remove(f.Name()) != nil {
			p.name = f.Name() // an open file stays (Windows): removed once closed
		}
	}
	p.zw, _ = flate.NewWriter(sink, flate.BestSpeed) // the level is valid: no error
}

// Len is the number of records parked.
func (p *Parking) Len() int { return p.n }

// Unpark calls each with each record parked, in order (rec is reused:
// each copies what it keeps), and lets them go; the error is
// ErrParking's, or each's.
func (p *Parking) Unpark(each func(rec []byte) error) error {
	if p.n == 0 {
		return nil
	}
	defer p.LetGo()
	err := p.err
	if cerr := p.zw.Close(); err == nil && cerr != nil {
		err = errors.Join(ErrParking, cerr)
	}
	var src io.Reader = &p.mem
	if p.file != nil {
		if _, serr := p.file.Seek(0, io.SeekStart); err == nil && serr != nil {
			err = errors.Join(ErrParking, serr)
		}
		src = p.file
	}
	if err != nil {
		return err
	}
	r := bufio.NewReader(flate.NewReader(src))
	var rec []byte
	for range p.n {
		size, err := binary.ReadUvarint(r)
		if err == nil {
			if uint64(cap(rec)) < size {
				rec = make([]byte, size)
			}
			rec = rec[:size]
			_, err = io.ReadFull(r, rec)
		}
		if err != nil {
			return errors.Join(ErrParking, err)
		}
		if err := each(rec); err != nil {
			return err
		}
	}
	return nil
}

// LetGo forgets the records parked, and closes their file.
func (p *Parking) LetGo() {
	p.n = 0
	p.mem.Reset()
	p.zw, p.err = nil, nil
	if p.file != nil {
		_ = p.file.Close() // unlinked, or removed next: what it held is gone either way
		if p.name != "" {
			_ = os.Remove(p.name)
		}
		p.file, p.name = nil, ""
	}
}
