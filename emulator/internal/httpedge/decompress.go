package httpedge

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Compressed request bodies. AWS's SDKs may compress a request body and say
// so with Content-Encoding (the SDKs' "request compression" feature,
// https://docs.aws.amazon.com/sdkref/latest/guide/feature-compression.html);
// DynamoDB decompresses it before anything else. What DynamoDB answers to
// bodies that do not decompress is recorded by ScyllaDB's tests run against
// AWS (test/alternator/test_compressed_request.py): 500 for a corrupt, a
// truncated or an empty gzip body and for an unknown Content-Encoding; two
// gzip members one after the other are one body.
//
// Where the emulator chooses:
//   - deflate (zlib, or raw deflate without the zlib header) is accepted
//     besides gzip, as HTTP defines it;
//   - the 16 MB request limit applies to the decompressed body as well
//     (DynamoDB accepts far larger decompressed bodies): past it, 413
//     RequestEntityTooLargeException, found without decompressing further;
//   - bytes after the last gzip member are a corrupt body (DynamoDB ignores
//     them, which its testers consider a bug).

// errBadContentEncoding is DynamoDB's answer to a body that does not
// decompress or an encoding it does not know: 500 InternalServerError.
var errBadContentEncoding = &apierr.Error{Class: apierr.ErrInternalServer, Msg: "Internal server error",
	Cause: errors.New("emulator: request body does not decode with its Content-Encoding")}

// contentCodings returns the codings of the request's Content-Encoding
// headers (vals) in the order they were applied, without "identity".
func contentCodings(vals []string) []string {
	if len(vals) == 0 {
		return nil
	}
	var codings []string
	for _, v := range vals {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}

// Decompressing returns a reader of the body r reads with the request's
// Content-Encoding headers (vals) undone, last coding first, as it is
// read: a stage that decodes more than max bytes fails with 413, found
// without decoding further, so a decompression bomb costs no more than
// its reading; a coding it does not know, or bytes that do not decode,
// are errBadContentEncoding, r's own errors (a read cut off) r's.
func Decompressing(vals []string, r io.Reader, max int64) (io.Reader, error) {
	codings := contentCodings(vals)
	raw := &rawErr{r: r}
	dr := io.Reader(raw)
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		if dr, err = decompressor(codings[i], dr); err != nil {
			return nil, raw.or(err)
		}
		dr = &stage{r: dr, raw: raw, max: max}
	}
	return dr, nil
}

// decompressor reads r decoded with one coding.
func decompressor(coding string, r io.Reader) (io.Reader, error) {
	switch coding {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, errBadContentEncoding
		}
		return zr, nil
	case "deflate":
		// Some clients send raw deflate under this name: zlib's header
		// is looked for in what is read first, and read again if it is
		// not one.
		br := bufio.NewReader(r)
		if head, _ := br.Peek(2); len(head) == 2 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 && head[0]&0x0f == 8 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, errBadContentEncoding
			}
			return zr, nil
		}
		return flate.NewReader(br), nil
	}
	return nil, errBadContentEncoding
}

// rawErr is the compressed body's reader: it keeps the error its reads
// ended with, which wins over the decoding's that follows from it.
type rawErr struct {
	r   io.Reader
	err error
}

func (r *rawErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// or is the raw body's error, or else err.
func (r *rawErr) or(err error) error {
	if r.err != nil {
		return r.err
	}
	return err
}

// stage is one decoding's output: at most max bytes, its errors
// DynamoDB's answers.
type stage struct {
	r   io.Reader
	raw *rawErr
	n   int64
	max int64
}

func (s *stage) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	switch {
	case s.n > s.max:
		return n, apierr.RequestEntityTooLarge()
	case err == nil, err == io.EOF:
		return n, err
	}
	return n, s.raw.or(errBadContentEncoding)
}
