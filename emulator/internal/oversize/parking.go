package oversize

import (
	"bytes"
	"compress/flate"
	"io"
	"slices"
)

// parking holds the runs of names a KeysCut dropped from the body kept
// until their object closes (keysCutter.closed): each run's place, and
// their bytes compressed one after another. A list of names is mostly
// the same few bytes again (quotes, commas, a common stem): 15 MB of
// them parked as they were held the server at 1.4 times the bytes of
// eight such requests at once, where the bound is 1.
type parking struct {
	runs []parkedRun
	buf  bytes.Buffer
	zw   *flate.Writer // made at the first run parked
}

// parkedRun is a run of names dropped from the body kept: where it goes
// back (the place it was taken from; runs go back last first) and its
// length.
type parkedRun struct {
	at, n int
}

// park keeps text, taken from the body kept at at.
func (p *parking) park(at int, text []byte) {
	if p.zw == nil {
		p.zw, _ = flate.NewWriter(&p.buf, flate.BestSpeed) // the level is valid: no error
	}
	_, _ = p.zw.Write(text) // into a bytes.Buffer: no error
	p.runs = append(p.runs, parkedRun{at: at, n: len(text)})
}

// empty reports whether no run is parked.
func (p *parking) empty() bool { return len(p.runs) == 0 }

// unpark puts the runs parked back into b, each at its place, and
// returns b and how many bytes it gained.
func (p *parking) unpark(b []byte) ([]byte, int) {
	if p.empty() {
		return b, 0
	}
	_ = p.zw.Close() // into a bytes.Buffer: no error
	total := 0
	for _, r := range p.runs {
		total += r.n
	}
	text := make([]byte, total)
	zr := flate.NewReader(&p.buf)
	if _, err := io.ReadFull(zr, text); err != nil {
		panic("oversize: parked names do not read back: " + err.Error()) // a bug: written above
	}
	for _, r := range slices.Backward(p.runs) {
		total -= r.n
		b = slices.Insert(b, r.at, text[total:total+r.n]...)
	}
	gained := len(text)
	p.letGo()
	return b, gained
}

// letGo forgets the runs parked.
func (p *parking) letGo() {
	p.runs = p.runs[:0]
	p.buf.Reset()
	if p.zw != nil {
		p.zw.Reset(&p.buf)
	}
}
