package httpedge

import (
	"bytes"
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

// DecompressBody undoes the request's Content-Encoding headers (vals) on
// buf, last coding first. Each stage reads at most max+1 bytes, so a
// decompression bomb costs no more than max bytes of memory.
func DecompressBody(vals []string, buf *bytes.Buffer, max int64) error {
	codings := contentCodings(vals)
	for i := len(codings) - 1; i >= 0; i-- {
		out, err := decompress(codings[i], buf.Bytes(), max)
		if err != nil {
			return err
		}
		buf.Reset()
		buf.Write(out)
	}
	return nil
}

// decompress returns data decoded with one coding, at most max bytes of it.
func decompress(coding string, data []byte, max int64) ([]byte, error) {
	var r io.Reader
	switch coding {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, errBadContentEncoding
		}
		r = zr
	case "deflate":
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			// Some clients send raw deflate under this name.
			r = flate.NewReader(bytes.NewReader(data))
		} else {
			r = zr
		}
	default:
		return nil, errBadContentEncoding
	}
	var out bytes.Buffer
	n, err := ReadAtMost(&out, r, max+1, 0)
	if n > max {
		return nil, apierr.RequestEntityTooLarge()
	}
	if err != nil {
		return nil, errBadContentEncoding
	}
	return out.Bytes(), nil
}
