package emulator

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// writeAnswer writes the loop's answer to one request (fastloop.go) and
// flushes it: the status line and the headers net/http's path writes
// (writeResponseCoded, plus Date and, when the connection closes after an
// HTTP/1.1 request, Connection: close), then the body, compressed with
// coding when it is not "".
func writeAnswer(bw *bufio.Writer, h *requestHead, coding string, ans *apiAnswer, keep bool) error {
	body := ans.body
	if coding != "" {
		body = compressResponse(coding, body)
	}
	var num [20]byte
	_, _ = bw.WriteString(statusLine(ans.status, h.http10))
	if coding != "" {
		_, _ = bw.WriteString("Content-Encoding: ")
		_, _ = bw.WriteString(coding)
		_, _ = bw.WriteString("\r\n")
	}
	_, _ = bw.WriteString("Content-Length: ")
	_, _ = bw.Write(strconv.AppendInt(num[:0], int64(len(body)), 10))
	_, _ = bw.WriteString("\r\nContent-Type: ")
	_, _ = bw.WriteString(responseContentType(h.contentType)[0])
	_, _ = bw.WriteString("\r\n" + versionHeaderName + ": ")
	_, _ = bw.WriteString(versionHeader()[0])
	_, _ = bw.WriteString("\r\nServer: Server\r\n" + headerCRC32 + ": ")
	_, _ = bw.Write(strconv.AppendUint(num[:0], uint64(crc32.ChecksumIEEE(body)), 10))
	_, _ = bw.WriteString("\r\n" + headerRequestID + ": ")
	_, _ = bw.WriteString(ans.reqID)
	_, _ = bw.WriteString("\r\n")
	_, _ = bw.Write(dateLine(time.Now()))
	if !keep && !h.http10 {
		_, _ = bw.WriteString("Connection: close\r\n")
	}
	_, _ = bw.WriteString("\r\n")
	_, _ = bw.Write(body)
	return bw.Flush()
}

// statusLine is net/http's status line for code, in the request's
// version (HTTP/1.0 to an HTTP/1.0 request).
func statusLine(code int, http10 bool) string {
	switch {
	case code == http.StatusOK && !http10:
		return "HTTP/1.1 200 OK\r\n"
	case code == http.StatusBadRequest && !http10:
		return "HTTP/1.1 400 Bad Request\r\n"
	}
	proto := "HTTP/1.1 "
	if http10 {
		proto = "HTTP/1.0 "
	}
	text := http.StatusText(code)
	if text == "" {
		return fmt.Sprintf("%s%03d status code %d\r\n", proto, code, code)
	}
	return proto + strconv.Itoa(code) + " " + text + "\r\n"
}

// cachedDate is a Date header line and the second it is for.
type cachedDate struct {
	sec  int64
	line []byte
}

// dates holds the Date line of the last second answered.
var dates atomic.Pointer[cachedDate]

// dateLine is the Date header line net/http writes at now ("Date: " and
// http.TimeFormat), made once per second.
func dateLine(now time.Time) []byte {
	sec := now.Unix()
	if d := dates.Load(); d != nil && d.sec == sec {
		return d.line
	}
	d := &cachedDate{sec: sec, line: []byte("Date: " + now.UTC().Format(http.TimeFormat) + "\r\n")}
	dates.Store(d)
	return d.line
}
