package httploop

import (
	"bufio"
	"io"
)

// Body reads the bytes left of a request body from the connection's read
// buffer: as many as its Content-Length announced, then io.EOF.
type Body struct {
	br *bufio.Reader
	n  int64
}

// Reset readies b for a body of n bytes read from br.
func (b *Body) Reset(br *bufio.Reader, n int64) { b.br, b.n = br, n }

// Left is the number of the body's bytes not read yet.
func (b *Body) Left() int64 { return b.n }

// Read reads the body. A connection that ends before the body does gives
// io.ErrUnexpectedEOF.
func (b *Body) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.br.Read(p)
	b.n -= int64(n)
	if err == io.EOF && b.n > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
