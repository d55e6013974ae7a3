package emulator

import (
	"hash/crc32"
	"net"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// writeAnswer writes the loop's answer to one request (fastloop.go) and
// flushes it: the status line and the headers net/http's path writes
// (writeResponseCoded, plus Date and, when the connection closes after an
// HTTP/1.1 request, Connection: close), then the body, compressed with
// coding when it is not "".
//
// Head and body leave in one system call: copied together into the
// connection's answer buffer when they fit in writeBufferSize, else as one
// writev of the head and the body. Syscalls are most of what a request
// costs the server here (40% in a CPU profile at c=8).
func writeAnswer(lc *loopConn, h *httploop.Head, coding string, ans *apiAnswer, keep bool) error {
	body := ans.body
	if coding != "" {
		body = compressResponse(coding, body)
	}
	head := appendAnswerHead((*lc.out)[:0], h, coding, ans, body, keep)
	if len(head)+len(body) <= writeBufferSize {
		*lc.out = append(head, body...)
		_, err := lc.c.Write(*lc.out)
		return err
	}
	*lc.out = head
	return lc.c.WriteBuffers(net.Buffers{head, body})
}

// appendAnswerHead appends the status line and headers of an answer with
// body to b, up to and including the blank line.
func appendAnswerHead(b []byte, h *httploop.Head, coding string, ans *apiAnswer, body []byte, keep bool) []byte {
	b = append(b, httploop.StatusLine(ans.status, h.HTTP10)...)
	if coding != "" {
		b = append(b, "Content-Encoding: "...)
		b = append(b, coding...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\nContent-Type: "...)
	b = append(b, responseContentType(h.ContentType)[0]...)
	b = append(b, "\r\n"+versionHeaderName+": "...)
	b = append(b, versionHeader()[0]...)
	b = append(b, "\r\nServer: Server\r\n"+headerCRC32+": "...)
	b = strconv.AppendUint(b, uint64(crc32.ChecksumIEEE(body)), 10)
	b = append(b, "\r\n"+headerRequestID+": "...)
	b = append(b, ans.reqID...)
	b = append(b, "\r\n"...)
	b = append(b, httploop.DateLine(time.Now())...)
	if ans.retryAfter {
		b = append(b, "Retry-After: "+retryAfterSeconds+"\r\n"...)
	}
	if !keep && !h.HTTP10 {
		b = append(b, "Connection: close\r\n"...)
	}
	return append(b, "\r\n"...)
}
