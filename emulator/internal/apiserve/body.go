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
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// readBody reads at most maxBody bytes of the body into buf; a longer body is
// RequestEntityTooLargeException, found without reading past the limit.
// The buffer grows as the bytes arrive: Content-Length reserves at most
// initialBodyBytes, so a client announcing 16 MB and sending nothing holds
// no 16 MB (limits.go). A body cut off by a read deadline is a bodyCut.
// The body of an operation whose list is cut as it arrives (Operation.ListCut: a
// transaction far over its 100 actions) is read through its ListCut,
// which keeps it but the elements past the limit (service/oversize.go),
// and cut says what it left out.
func (s *Server) readBody(in *Request, buf *bytes.Buffer, op service.Operation) (cut service.Cut, err error) {
	if in.ContentLength > s.MaxBody {
		return cut, apierr.RequestEntityTooLarge()
	}
	want := int64(0) // the buffer a body that arrives as announced needs
	if in.ContentLength > 0 {
		buf.Grow(int(min(in.ContentLength, initialBodyBytes)))
		want = in.ContentLength + 1 // + 1: room to read its end
	}
	var n int64
	r := in.Body
	var sum hash.Hash // the body's SHA-256, as it arrives, where it is not held whole
	// The size first: most bodies are small, and the ListCut's lookup
	// by name would be paid by every request (BenchmarkOps/GetItem/handler).
	var lc *oversize.ListCut
	if oversize.TakesSize(in.ContentLength) && in.ContentEncoding == nil {
		lc = op.ListCut()
	}
	if lc != nil {
		if in.Sum != nil {
			sum = sha256.New()
			r = io.TeeReader(r, sum)
		}
		var more bool
		n, cut, more, err = lc.Read(buf, r, s.MaxBody+1, want)
		if more && err == nil {
			var m int64
			m, err = httpedge.ReadAtMost(buf, r, s.MaxBody+1-n, want)
			n += m
		}
	} else {
		n, err = httpedge.ReadAtMost(buf, r, s.MaxBody+1, want)
	}
	if n > s.MaxBody {
		return service.Cut{}, apierr.RequestEntityTooLarge()
	}
	if errors.Is(err, errOverBudget) {
		return service.Cut{}, err
	}
	if errors.Is(err, oversize.ErrParking) {
		s.Logger.Error("a request's parked names do not read back", "op", op.Name, "err", err)
		return service.Cut{}, apierr.Internal()
	}
	if err != nil {
		if httploop.IsTimeout(err) {
			return service.Cut{}, &bodyCut{read: n, size: in.ContentLength, reason: cutReadTimeout, err: err}
		}
		return service.Cut{}, apierr.Serialization("")
	}
	if in.Sum != nil {
		if sum != nil {
			sum.Sum(in.Sum[:0])
		} else {
			*in.Sum = sha256.Sum256(buf.Bytes())
		}
	}
	if in.ContentEncoding != nil {
		return cut, httpedge.DecompressBody(in.ContentEncoding, buf, s.MaxBody)
	}
	return cut, nil
}
