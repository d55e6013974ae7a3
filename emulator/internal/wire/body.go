package wire

import (
	"bytes"
	"errors"
	"io"

	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// Body is a request body as DecodeBody reads it: from R, as the decoder
// needs its bytes, into a window that holds what has arrived and is
// kept (every byte but the elements a list drops past its limit:
// limits.go). A small body (Size at most maxBodyText) is read whole
// before it is decoded, so its strings can share one copy of it.
type Body struct {
	R     io.Reader
	Buf   []byte // room to read into, reused; after DecodeBody, the window (what is kept of the body)
	Size  int64  // the announced size; -1 unknown
	Limit int64  // the most bytes read: past it, Err is ErrTooLarge and reading stops
	N     int64  // bytes read
	Err   error  // R's error (io.EOF is none), or ErrTooLarge
	EOF   bool   // R ended
	// Admitted, when set, says how many of the body's bytes R's reader
	// has been admitted to hold (apiserve's budget charges a large body
	// its announced size with its first read when it can, ahead of its
	// bytes, else once an eighth of them have arrived): once that
	// covers Size, the window takes the announced size as soon as it
	// would hold a sixteenth of it, not a quarter, unless the decoder
	// has dropped bytes from it (a list past its limit: the window of
	// such a body stays far below its size).
	Admitted interface{ Admitted() int64 }
	dropped  bool // the decoder has dropped bytes from the window
}

// ErrTooLarge is the error of a body read past its Limit.
var ErrTooLarge = errors.New("wire: request body over its limit")

// readChunk is the most room a read of the body is given past the
// window's kept part, while the window is large: what it holds beyond
// its kept part is at most a chunk.
const readChunk = 32 << 10

// fill reads more of the body after data, the window so far, and
// returns the window and whether any byte came. The window doubles once
// it is full (so a body that sends little holds little: a hundred 16 MB
// PutItems that sent a few bytes and went silent hold 8 KB windows), and
// takes the announced size once it would hold a quarter of it (a body
// kept whole, 4 MB, allocates buffers of 6 MB in all, where doubling to
// it allocated 8), or a sixteenth once the reader's admission covers it
// (Admitted).
func (b *Body) fill(data []byte) ([]byte, bool) {
	for !b.EOF && b.Err == nil {
		want := b.Size + 1 // + 1: room to read the body's end
		if len(data) == cap(data) {
			size := max(2*cap(data), 512)
			if want > int64(len(data)) && (int64(4*size) > want || int64(16*size) > want && b.admitted()) {
				size = int(want)
			}
			grown := make([]byte, len(data), size)
			copy(grown, data)
			data = grown
		}
		room := data[len(data):min(cap(data), len(data)+readChunk)]
		if b.Limit > 0 {
			room = room[:min(int64(len(room)), b.Limit+1-b.N)]
		}
		m, err := b.R.Read(room)
		b.N += int64(m)
		data = data[:len(data)+m]
		switch {
		case err == io.EOF:
			b.EOF = true
		case err != nil:
			b.Err = err
		case b.Limit > 0 && b.N > b.Limit:
			b.Err = ErrTooLarge
		}
		if m > 0 {
			return data, true
		}
	}
	return data, false
}

// admitted reports whether the window may take the body's size early:
// its reader has been admitted to hold it all, and the decoder keeps
// what arrives.
func (b *Body) admitted() bool {
	return b.Admitted != nil && !b.dropped && b.Admitted.Admitted() >= b.Size
}

// more reads more of the body into the window; it reports whether any
// byte came (false at the body's end, or with no reader: the input is
// whole).
func (d *decoder) more() bool {
	if d.src == nil {
		return false
	}
	var ok bool
	d.data, ok = d.src.fill(d.data)
	return ok
}

// whole reports whether the window holds the whole input.
func (d *decoder) whole() bool { return d.src == nil || d.src.EOF || d.src.Err != nil }

// at returns the input's byte at i, reading the body up to it; 0 past
// its end.
func (d *decoder) at(i int) byte {
	for i >= len(d.data) {
		if !d.more() {
			return 0
		}
	}
	return d.data[i]
}

// left is how many bytes of the input there are from pos on; -1 when
// that is not known (a body of no announced size).
func (d *decoder) left() int {
	switch {
	case d.whole():
		return len(d.data) - d.pos
	case d.src.Size < 0:
		return -1
	}
	return int(d.src.Size - d.src.N + int64(len(d.data)-d.pos))
}

// rest reads the rest of the body into the window.
func (d *decoder) rest() {
	for d.more() {
	}
}

// viewText makes the strings decoded from now on views of the window
// (d.text), for a value read to be let go, or kept only as a copy: an
// element a list drops, a value of a compact map. Nothing may keep
// them: the window's bytes are dropped, and reused once the request is
// answered.
func (d *decoder) viewText() {
	if d.body == "" {
		d.text = d.bodyText()
	}
}

// drop takes the window's bytes from mark to pos out of it: an element
// of a list past its limit, read and checked (limits.go). Nothing may
// view them: what the element was decoded into is a scratch value that
// holds copies, and views are made only of what a request keeps. Once
// the body is one string (keepBody) it is small, and nothing is dropped:
// its strings are that string's at the window's positions; nor from a
// body held whole, which is the caller's.
func (d *decoder) drop(mark int) {
	if d.body != "" || d.src == nil { // the caller's bytes are not the decoder's to move
		return
	}
	d.src.dropped = true
	if d.place != nil {
		d.place.drop(d.data, mark, d.pos)
	}
	end := len(d.data)
	if poisonDrops {
		poison(d.data[mark:d.pos])
	}
	n := copy(d.data[mark:], d.data[d.pos:])
	d.data = d.data[:mark+n]
	d.pos = mark
	if poisonDrops { // and the bytes past the window the move left behind
		poison(d.data[mark+n : end])
	}
}

// poisonDrops is the checked mode of drop, on under the race detector
// (lease's checked mode, as the given-back maps' poison in
// wire_recycle.go): the bytes dropped are overwritten with poisonByte
// before the window moves, and those the move leaves past its end after
// it, so a string a list's Past kept as a view of an element it was
// shown (not a copy) reads poison where the move did not put later
// bytes (all of it when the body comes a few bytes a read), not text
// that may pass for the element's.
var poisonDrops = lease.Checked()

// poisonByte is what dropped bytes become in the checked mode: not a
// byte of JSON text, nor of UTF-8.
const poisonByte = 0xff

func poison(b []byte) {
	for i := range b {
		b[i] = poisonByte
	}
}

// place counts the lines and columns of a strict request's text, from
// its '{' at the window's byte at (which no byte before is dropped
// from), over the bytes the window drops (drop, called by the window's own
// drop when a strict request set its place): lines and col
// are the newlines and the column of the text before the window's byte
// at, the bytes dropped included.
type place struct{ at, lines, col int }

// advance counts the bytes b, which follow those counted.
func (p *place) advance(b []byte) {
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		p.lines += n
		p.col = len(b) - bytes.LastIndexByte(b, '\n') - 1
		return
	}
	p.col += len(b)
}

// drop counts the window data's bytes up to pos before those from mark
// on are dropped.
func (p *place) drop(data []byte, mark, pos int) {
	p.advance(data[p.at:mark])
	p.advance(data[mark:pos])
	p.at = mark
}

// end returns the line and the column (1-based, in bytes) of the byte
// before the window data's pos.
func (p place) end(data []byte, pos int) (line, col int) {
	p.advance(data[p.at:pos])
	return p.lines + 1, p.col
}
