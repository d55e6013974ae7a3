package httpedge

import (
	"bytes"
	"io"
)

// Reading a request body: ReadAtMost reads at most a limit, and holds a
// body that arrives as its Content-Length announced in a buffer of its
// size, so that a large body costs no more than it must (the memory
// bounds of the oversized-request tests hang on it).

// ReadAtMost is buf.ReadFrom(io.LimitReader(r, limit)) without allocating
// the LimitedReader. When want is set (the body's announced size, plus
// the byte that sees its end) and the buffer is smaller, the first half
// of want arrives in chunks (readHalf) and is copied once into a buffer
// of want bytes, where the rest is read: a body that arrives as announced
// ends in a buffer of its size, after one and a half times its size
// allocated, and no buffer is reserved for bytes that have not arrived
// beyond as many as have. Without want (or past it) the buffer doubles
// as bytes arrive, as bytes.Buffer grows.
func ReadAtMost(buf *bytes.Buffer, r io.Reader, limit, want int64) (int64, error) {
	var n int64
	if want > int64(buf.Cap()) {
		var done bool
		var err error
		if n, done, err = readHalf(buf, r, limit, want); done || err != nil {
			return n, err
		}
	}
	for n < limit {
		if buf.Available() == 0 {
			size := max(2*buf.Cap(), buf.Len()+512)
			if want > int64(buf.Len()) {
				size = int(min(int64(size), want))
			}
			b := make([]byte, buf.Len(), size)
			copy(b, buf.Bytes())
			*buf = *bytes.NewBuffer(b)
		}
		free := buf.AvailableBuffer()[:min(int64(buf.Available()), limit-n)]
		m, err := r.Read(free)
		buf.Write(free[:m])
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// maxBodyChunk is the largest chunk readHalf reads into: a body that ends
// before its announced size leaves at most this much of a chunk unused.
const maxBodyChunk = 1 << 20

// readHalf reads the body into buf's free room and then into chunks, each
// as large as all that came before it up to maxBodyChunk, until half of
// want is held; then it
// joins them in buf, in a buffer of want bytes (done false: the rest is to
// be read). A body that ends first, an error or the limit is joined in a
// buffer of what arrived (done true). A 4 MB body: 6 MB allocated, where
// doubling one buffer towards want allocated 8 (BenchmarkOversizeMemory).
func readHalf(buf *bytes.Buffer, r io.Reader, limit, want int64) (n int64, done bool, err error) {
	held := int64(buf.Len())
	m, err := fill(r, buf.AvailableBuffer()[:min(int64(buf.Available()), limit)])
	buf.Write(buf.AvailableBuffer()[:m])
	n, held = int64(m), held+int64(m)
	var chunks [][]byte
	for err == nil && n < limit && held < want/2 {
		c := make([]byte, min(max(held, 512), maxBodyChunk, want/2-held, limit-n)) // never empty: each read makes progress
		m, err = fill(r, c)
		chunks = append(chunks, c[:m])
		n, held = n+int64(m), held+int64(m)
	}
	done = err != nil || n == limit || held < want/2
	if err == io.EOF {
		err = nil
	}
	if done && chunks == nil {
		return n, done, err // all in buf
	}
	size := held
	if !done {
		size = want
	}
	b := make([]byte, 0, size)
	b = append(b, buf.Bytes()...)
	for _, c := range chunks {
		b = append(b, c...)
	}
	*buf = *bytes.NewBuffer(b)
	return n, done, err
}

// fill reads r into p until p is full, r ends (io.EOF) or fails.
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
