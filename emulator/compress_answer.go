package emulator

import (
	"bytes"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// Compressed answers: which coding a client accepts, and from what size
// DynamoDB compresses, is httploop's (ResponseCoding, AcceptedCoding,
// MinCompressed); the compressing is here, with the compressors' pools
// (pools.go).

// compressResponse returns body compressed with coding (gzip or deflate).
func compressResponse(coding string, body []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(body)/4 + 64)
	switch coding {
	case httploop.CodingGzip:
		zw := gzipWriters.Get() // pools.go
		zw.Reset(&out)
		_, _ = zw.Write(body)
		_ = zw.Close()
		gzipWriters.Put(zw)
	default:
		zw := zlibWriters.Get()
		zw.Reset(&out)
		_, _ = zw.Write(body)
		_ = zw.Close()
		zlibWriters.Put(zw)
	}
	return out.Bytes()
}
