package oversize

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"os"
	"slices"
)

// ErrParking says names or keys a KeysCut parked could not be written or read
// back (a disk fault): the request has no answer but an internal error.
var ErrParking = errors.New("oversize: parked names do not read back")

// parking holds the runs of names a KeysCut dropped from the body kept
// until their object closes (keysCutter.closed): each run's place, and
// their bytes compressed one after another into a file of the system's
// temporary directory, unlinked once made. The names must be kept: a
// Keys of 100 keys or fewer given after them in their object would make
// them the answer (a request served, or refused for a name), and a
// reader of one pass cannot know that before the object closes. Kept in
// memory, compressed, names of random letters and digits took the
// server to 2.4 times the bytes of a 15 MB request alone and 1.9 eight
// at once, over the memory test's bounds of 1.5 and 1; in a file, memory
// does not depend on how well the names compress. Where no file can be
// made, they are kept compressed in memory. A KeysCut's keys past Keep
// in all are parked the same way, in a parking of their own, until the
// body ends (keysCutter.parkKeys).
type parking struct {
	runs []parkedRun
	zw   *flate.Writer // made at the first run parked, onto file or mem
	file *os.File      // nil: no run parked, or no file could be made
	name string        // the file's name while it could not be unlinked
	mem  bytes.Buffer  // the runs compressed when no file could be made
	err  error         // the first write that failed (ErrParking)
}

// parkedRun is a run of names dropped from the body kept: where it goes
// back (the place it was taken from; runs go back last first) and its
// length.
type parkedRun struct {
	at, n int
}

// parkDir is the directory of parking's files ("": os.TempDir; a test
// names one that does not exist).
var parkDir = ""

// park keeps text, taken from the body kept at at.
func (p *parking) park(at int, text []byte) {
	if p.zw == nil {
		p.open()
	}
	if _, err := p.zw.Write(text); err != nil && p.err == nil {
		p.err = errors.Join(ErrParking, err)
	}
	// A run taken where the last one was continues it: the last was
	// dropped there, so this text followed it in the body. One run goes
	// back with one insert, where a run each moved the rest of the body
	// once per run (BenchmarkParkingPutBack, 480 runs of 32 KB: 1.04 s a
	// put-back before, 40 ms after).
	if k := len(p.runs) - 1; k >= 0 && p.runs[k].at == at {
		p.runs[k].n += len(text)
		return
	}
	p.runs = append(p.runs, parkedRun{at: at, n: len(text)})
}

// open makes the file the runs go to (or, when none can be made, keeps
// them in mem), and the writer that compresses them into it.
func (p *parking) open() {
	var sink io.Writer = &p.mem
	if f, err := os.CreateTemp(parkDir, "dynamoemu-names-*"); err == nil {
		p.file, sink = f, f
		if os.Remove(f.Name()) != nil {
			p.name = f.Name() // an open file stays (Windows): removed once closed
		}
	}
	p.zw, _ = flate.NewWriter(sink, flate.BestSpeed) // the level is valid: no error
}

// empty reports whether no run is parked.
func (p *parking) empty() bool { return len(p.runs) == 0 }

// unpark puts the runs parked back into b, each at its place, and
// returns b and how many bytes it gained; the error is ErrParking's.
func (p *parking) unpark(b []byte) ([]byte, int, error) {
	if p.empty() {
		return b, 0, nil
	}
	defer p.letGo()
	text, err := p.readBack()
	if err != nil {
		return b, 0, err
	}
	total := len(text)
	for _, r := range slices.Backward(p.runs) {
		total -= r.n
		b = slices.Insert(b, r.at, text[total:total+r.n]...)
	}
	return b, len(text), nil
}

// readBack returns the runs parked, one after another.
func (p *parking) readBack() ([]byte, error) {
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
		return nil, err
	}
	total := 0
	for _, r := range p.runs {
		total += r.n
	}
	text := make([]byte, total)
	if _, err := io.ReadFull(flate.NewReader(src), text); err != nil {
		return nil, errors.Join(ErrParking, err)
	}
	return text, nil
}

// after moves the places of p's runs for the runs of q put back before
// them (q's runs are at other places: in other lists of the body).
func (p *parking) after(q *parking) {
	if q.empty() {
		return
	}
	for i := len(p.runs) - 1; i >= 0 && p.runs[i].at > q.runs[0].at; i-- {
		at := p.runs[i].at // q's places are of the body without p's runs, as this is
		for _, r := range q.runs {
			if r.at < at {
				p.runs[i].at += r.n
			}
		}
	}
}

// letGo forgets the runs parked, and closes their file.
func (p *parking) letGo() {
	p.runs = p.runs[:0]
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
