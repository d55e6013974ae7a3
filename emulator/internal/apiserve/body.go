package apiserve

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"hash"
	"io"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// readBody reads the body through op's request decoder as it arrives
// (service.Decode: each byte read once, the elements a list member far
// over its limit does not keep dropped as they are read), and returns
// the decoded input. At most MaxBody bytes are read: a longer body is
// RequestEntityTooLargeException, found without reading past the limit,
// and so is one that decompresses to more. The body's window starts at
// initialBodyBytes, so a client announcing 16 MB and sending nothing
// holds no 16 MB (limits.go). A body cut off by a read deadline is a
// bodyCut; what stopped the reading wins over what the decoder found.
// buf's room is the window's, and holds it once read (until the answer
// is written: the input may view it).
func (s *Server) readBody(in *Request, buf *bytes.Buffer, op service.Operation) (service.Input, error) {
	if in.ContentLength > s.MaxBody {
		return service.Input{}, apierr.RequestEntityTooLarge()
	}
	if in.ContentLength > 0 {
		buf.Grow(int(min(in.ContentLength, initialBodyBytes)))
	}
	r := in.Body
	var sum hash.Hash // the body's SHA-256, as it arrives
	if in.Sum != nil {
		sum = sha256.New()
		r = io.TeeReader(r, sum)
	}
	body := wire.Body{R: r, Buf: buf.Bytes(), Size: in.ContentLength, Limit: s.MaxBody}
	if br, ok := in.Body.(*bodyReader); ok {
		body.Admitted = br
	}
	if in.ContentEncoding != nil {
		dr, n, err := s.inflating(in, op, r)
		if err != nil {
			return service.Input{}, err
		}
		body.R, body.Size = dr, n
	}
	var input service.Input
	if op.Known() {
		input = s.Svc.Decode(op, &body)
	} else { // a test's operation in front of the service's: its body whole
		raw := bytes.NewBuffer(body.Buf)
		body.N, body.Err = raw.ReadFrom(io.LimitReader(body.R, body.Limit+1))
		body.Buf, body.EOF = raw.Bytes(), body.Err == nil
	}
	if !body.EOF && body.Err == nil { // the decoder stopped early: the rest read away
		n, err := io.Copy(io.Discard, io.LimitReader(body.R, body.Limit+1-body.N))
		body.N += n
		body.Err = err
	}
	if body.Err == nil && body.N > body.Limit {
		body.Err = wire.ErrTooLarge
	}
	*buf = *bytes.NewBuffer(body.Buf)
	if body.Err != nil {
		input.Release()
		return service.Input{}, s.readErr(in, op, body.N, body.Err)
	}
	if sum != nil {
		sum.Sum(in.Sum[:0])
	}
	return input, nil
}

// inflating returns a reader of a compressed body's inflated bytes, and
// their number (-1: unknown). With the budget on (a bodyReader) the
// body is read whole first, its compressed bytes charged as they arrive
// as any body's, then inflated once into nothing: one that inflates past
// the limit is 413 then, before anything of it is kept; else its
// inflated size is charged (chargeInflated), all at once, before its
// window is allocated, and the reader returned inflates it again. The
// inflating is the server's time, not its client's (readRaw). With the
// budget off the body is inflated as it arrives.
func (s *Server) inflating(in *Request, op service.Operation, r io.Reader) (io.Reader, int64, error) {
	raw := &rawLimit{r: r, max: s.MaxBody}
	br, ok := in.Body.(*bodyReader)
	if !ok {
		dr, err := httpedge.Decompressing(in.ContentEncoding, raw, s.MaxBody)
		if err != nil {
			return nil, 0, s.readErr(in, op, raw.n, err)
		}
		return dr, -1, nil
	}
	var comp bytes.Buffer
	if in.ContentLength > 0 {
		comp.Grow(int(min(in.ContentLength, initialBodyBytes)) + bytes.MinRead)
	}
	if _, err := comp.ReadFrom(raw); err != nil {
		return nil, 0, s.readErr(in, op, raw.n, err)
	}
	dr, err := httpedge.Decompressing(in.ContentEncoding, bytes.NewReader(comp.Bytes()), s.MaxBody)
	if err != nil {
		return nil, 0, s.readErr(in, op, raw.n, err)
	}
	n, err := io.Copy(io.Discard, dr)
	if err != nil {
		return nil, 0, s.readErr(in, op, raw.n, err)
	}
	if err := br.chargeInflated(n); err != nil {
		return nil, 0, err
	}
	dr, err = httpedge.Decompressing(in.ContentEncoding, bytes.NewReader(comp.Bytes()), s.MaxBody)
	if err != nil {
		return nil, 0, s.readErr(in, op, raw.n, err)
	}
	return dr, n, nil
}

// readErr is the answer to a body whose reading failed with err after n
// bytes.
func (s *Server) readErr(in *Request, op service.Operation, n int64, err error) error {
	switch {
	case errors.Is(err, wire.ErrTooLarge):
		return apierr.RequestEntityTooLarge()
	case errors.Is(err, errOverBudget), errors.Is(err, errSlowBodies):
		return err
	case errors.Is(err, apierr.ErrRequestEntityTooLarge), errors.Is(err, apierr.ErrInternalServer):
		return err // a compressed body's (httpedge.Decompressing)
	case httploop.IsTimeout(err):
		return &bodyCut{read: n, size: in.ContentLength, reason: cutReadTimeout, err: err}
	}
	return apierr.Serialization("")
}

// rawLimit reads a compressed body, at most max bytes of it.
type rawLimit struct {
	r      io.Reader
	n, max int64
}

func (l *rawLimit) Read(p []byte) (int, error) {
	if int64(len(p)) > l.max+1-l.n {
		p = p[:l.max+1-l.n]
	}
	n, err := l.r.Read(p)
	if l.n += int64(n); l.n > l.max {
		return n, wire.ErrTooLarge
	}
	return n, err
}
