package httploop

import (
	"net/http"
	"strconv"
	"strings"
)

// Compressed responses. DynamoDB compresses a response body of 4 KB or more
// when the request's Accept-Encoding allows gzip or deflate, says so with
// Content-Encoding, and computes x-amz-crc32 over the bytes it sends, the
// compressed ones. Sources: ScyllaDB's tests run against AWS
// (test/alternator/test_compressed_response.py: the 4096-byte threshold,
// gzip and deflate, and how Accept-Encoding is read, case by case), an AWS
// engineer's answer on re:Post ("DynamoDB will gzip the response payload if
// it exceeds a certain threshold"), and AWS's SDKs, which check the CRC
// before they decompress ("The CRC is computed on the response after the
// response is gziped", smithy-rs#129; aws-sdk-go-v2's DynamoDB client
// option EnableAcceptEncodingGzip). The SDKs send "Accept-Encoding:
// identity" unless told otherwise, so they get plain bodies. DynamoDB Local
// never compresses.

// MinCompressed is the smallest body DynamoDB compresses.
const MinCompressed = 4096

// Response codings: the Content-Encoding values of a compressed answer.
const (
	CodingGzip    = "gzip"
	CodingDeflate = "deflate" // the zlib format (RFC 9110 "deflate")
)

// ResponseCoding returns the coding to compress a response to r with ("":
// none), reading its Accept-Encoding as DynamoDB does: of several headers
// the first (ScyllaDB's test_multiple_accept_encoding_headers, run against
// DynamoDB in January 2026: "identity" then "gzip" is not compressed,
// "gzip" then "identity" is; the signature covers them all, joined);
// entries split at commas, case-insensitive, blank ones skipped; a
// coding's weight as qValue reads it; a coding named twice takes its
// highest weight; "*" gives its weight to gzip and deflate when they are
// not named; the highest weight above 0 wins, a named coding before one "*"
// stands for, then the earlier named, then gzip. Anything else (identity,
// br, quoted or malformed names) is ignored. A header changed after
// signing is refused (InvalidSignatureException) only where the emulator
// verifies signatures, with -credentials; by default it verifies none, as
// DynamoDB Local.
func ResponseCoding(h http.Header) string {
	vals := h.Values("Accept-Encoding")
	if len(vals) == 0 {
		return ""
	}
	return AcceptedCoding(vals[0])
}

// AcceptedCoding is ResponseCoding of the first Accept-Encoding header's
// value.
func AcceptedCoding(accept string) string {
	type weight struct {
		q     float64
		pos   int // position of the first mention; -1: not named
		named bool
	}
	ws := map[string]*weight{CodingGzip: {pos: -1}, CodingDeflate: {pos: -1}}
	star, hasStar := 0.0, false
	pos := 0
	for entry := range strings.SplitSeq(accept, ",") {
		name, params, _ := strings.Cut(entry, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		q := qValue(params)
		switch w := ws[name]; {
		case name == "*":
			if !hasStar {
				star, hasStar = q, true
			}
		case w != nil:
			if !w.named {
				w.named, w.pos, w.q = true, pos, q
			} else {
				w.q = max(w.q, q)
			}
		}
		pos++
	}
	best, bestQ, bestNamed, bestPos := "", 0.0, false, 0
	for _, c := range []string{CodingGzip, CodingDeflate} {
		w := ws[c]
		q, named := w.q, w.named
		if !named {
			if !hasStar {
				continue
			}
			q = star
		}
		if q <= 0 {
			continue
		}
		better := q > bestQ ||
			q == bestQ && named && !bestNamed ||
			q == bestQ && named && bestNamed && w.pos < bestPos
		if best == "" || better {
			best, bestQ, bestNamed, bestPos = c, q, named, w.pos
		}
	}
	return best
}

// qValue is the weight given by an Accept-Encoding entry's parameters
// (";q=0.5;..."), read as DynamoDB reads it: the text after the first "q="
// anywhere in them (so ";nq=0" is a weight of 0, and ";q =0" none), up to
// the next ";", blanks trimmed; 1 when there is none or it is no number;
// clamped to 0..1. The records (ScyllaDB's test_accept_encoding_header,
// run against DynamoDB): "gzip;q =0;q=1" is compressed, "gzip;nq=0;q=1",
// "gzip; q=0;q=1" and "gzip;q= 0;q=1" are not.
func qValue(params string) float64 {
	i := strings.Index(params, "q=")
	if j := strings.Index(params, "Q="); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return 1
	}
	v, _, _ := strings.Cut(params[i+len("q="):], ";")
	q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 1
	}
	return min(max(q, 0), 1)
}
