package httploop

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// An API call's answer, written as DynamoDB writes it on either path:
// through net/http's ResponseWriter (WriteAnswer) or by the loop straight
// to the connection (WriteLoopAnswer), with the same headers.

// Response header names in canonical form (what Header.Set would store),
// shared by all answers: nothing modifies them.
const (
	HeaderRequestID = "X-Amzn-Requestid"  // x-amzn-RequestId
	HeaderCRC32     = "X-Amz-Crc32"       // x-amz-crc32
	HeaderVersion   = "Dynamoemu-Version" // the emulator's version, on every answer
)

// WriteBufferSize is the most of an answer (head and body) the loop copies
// into its answer buffer to send in one write; a larger one goes out as a
// writev of the head and the body.
const WriteBufferSize = 4 << 10

var (
	// ServerHeader is AWS's Server response header: DynamoDB answers
	// "Server: Server" (DynamoDB Local answers with its Jetty version).
	ServerHeader      = []string{"Server"}
	contentTypeJSON10 = []string{"application/x-amz-json-1.0"}
	contentTypeJSON11 = []string{"application/x-amz-json-1.1"}
)

// ContentType is the Content-Type answered to a request of Content-Type
// reqType: JSON 1.1 to 1.1, else 1.0.
func ContentType(reqType string) []string {
	if strings.HasPrefix(reqType, "application/x-amz-json-1.1") {
		return contentTypeJSON11
	}
	return contentTypeJSON10
}

// WriteAnswer writes an answer for a request of Content-Type reqType
// with the headers the AWS SDKs expect, x-amz-crc32 above all (they
// verify it), the body compressed with coding ("": none).
func WriteAnswer(w http.ResponseWriter, reqType, coding, reqID string, status int, body []byte) error {
	h := w.Header()
	if coding != "" {
		body = Compress(coding, body)
		h["Content-Encoding"] = []string{coding}
	}
	// One allocation for the three values and the digits of two of them;
	// each header gets a full slice. The digits' own string (one more
	// allocation) took BenchmarkOps/GetItem/handler from 240 to 256 B/op
	// and 7 to 8 allocs/op, QueryPartition10 from 297 to 316 B/op.
	hv := new(respHeaderVals)
	digits := strconv.AppendUint(hv.digits[:0], uint64(crc32.ChecksumIEEE(body)), 10)
	nc := len(digits)
	digits = strconv.AppendInt(digits, int64(len(body)), 10)
	hv.vals = [3]string{reqID, unsafe.String(&digits[0], nc), unsafe.String(&digits[nc], len(digits)-nc)}
	h["Content-Type"] = ContentType(reqType)
	h["Server"] = ServerHeader
	h[HeaderRequestID] = hv.vals[0:1:1]
	h[HeaderCRC32] = hv.vals[1:2:2]
	h["Content-Length"] = hv.vals[2:3:3]
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// respHeaderVals is WriteAnswer's header values: the request ID,
// and the CRC32 and length of the body, whose text is in digits (written
// once, then only read through the strings).
type respHeaderVals struct {
	vals   [3]string
	digits [10 + 20]byte // a uint32 and an int in decimal
}

// NewRequestID returns a random UUID-formatted request id: 32 hex digits
// of two random words, cut 8-4-4-4-12. Encoded a byte at a time (two
// table looks) and then cut, not a nibble at a time with the dashes
// tested in the loop (BenchmarkOps/GetItem/handler).
func NewRequestID() string {
	var b [RequestIDLen]byte
	putRequestID(&b)
	return string(b[:])
}

// RequestIDLen is the length of a request ID.
const RequestIDLen = 36

// putRequestID writes a fresh request ID (NewRequestID's) into b.
func putRequestID(b *[RequestIDLen]byte) {
	var r [16]byte
	binary.BigEndian.PutUint64(r[:8], rand.Uint64())
	binary.BigEndian.PutUint64(r[8:], rand.Uint64())
	var h [32]byte
	hex.Encode(h[:], r[:])
	copy(b[0:8], h[0:8])
	copy(b[9:13], h[8:12])
	copy(b[14:18], h[12:16])
	copy(b[19:23], h[16:20])
	copy(b[24:36], h[20:32])
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
}

// Answer is what the loop's answer head says beside the body: its status,
// request ID, the emulator's version and, for a throttled request, the
// Retry-After seconds ("": none).
type Answer struct {
	Status     int
	ReqID      string
	Version    string
	RetryAfter string
	Now        time.Time // its Date; zero: the clock's now (the caller's read, shared with its write deadline, saves one)
}

// WriteLoopAnswer writes the loop's answer a with body to one request
// and flushes it: the status line and the headers net/http's path writes
// (WriteAnswer, plus Date and, when the connection closes after an
// HTTP/1.1 request, Connection: close), then the body, compressed with
// coding when it is not "".
//
// Head and body leave in one system call: copied together into the
// connection's answer buffer when they fit in WriteBufferSize, else as one
// writev of the head and the body. Syscalls are most of what a request
// costs the server here (40% in a CPU profile at c=8).
func WriteLoopAnswer(lc *LoopConn, h *Head, coding string, a *Answer, body []byte, keep bool) error {
	if coding != "" {
		body = Compress(coding, body)
	}
	head := appendAnswerHead((*lc.Out)[:0], h, coding, a, body, keep)
	if len(head)+len(body) <= WriteBufferSize {
		*lc.Out = append(head, body...)
		_, err := lc.Conn.Write(*lc.Out)
		return err
	}
	*lc.Out = head
	return lc.Conn.WriteBuffers(net.Buffers{head, body})
}

// appendAnswerHead appends the status line and headers of an answer with
// body to b, up to and including the blank line.
func appendAnswerHead(b []byte, h *Head, coding string, a *Answer, body []byte, keep bool) []byte {
	b = append(b, StatusLine(a.Status, h.HTTP10)...)
	if coding != "" {
		b = append(b, "Content-Encoding: "...)
		b = append(b, coding...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\nContent-Type: "...)
	b = append(b, ContentType(h.ContentType)[0]...)
	b = append(b, "\r\n"+HeaderVersion+": "...)
	b = append(b, a.Version...)
	b = append(b, "\r\nServer: Server\r\n"+HeaderCRC32+": "...)
	b = strconv.AppendUint(b, uint64(crc32.ChecksumIEEE(body)), 10)
	b = append(b, "\r\n"+HeaderRequestID+": "...)
	b = append(b, a.ReqID...)
	b = append(b, "\r\n"...)
	now := a.Now
	if now.IsZero() {
		now = time.Now()
	}
	b = append(b, DateLine(now)...)
	if a.RetryAfter != "" {
		b = append(b, "Retry-After: "...)
		b = append(b, a.RetryAfter...)
		b = append(b, "\r\n"...)
	}
	if !keep && !h.HTTP10 {
		b = append(b, "Connection: close\r\n"...)
	}
	return append(b, "\r\n"...)
}
