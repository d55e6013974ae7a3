package httploop

import (
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// StatusLine is net/http's status line for code, in the request's
// version (HTTP/1.0 to an HTTP/1.0 request).
func StatusLine(code int, http10 bool) string {
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

// DateLine is the Date header line net/http writes at now ("Date: " and
// http.TimeFormat), made once per second.
func DateLine(now time.Time) []byte {
	sec := now.Unix()
	if d := dates.Load(); d != nil && d.sec == sec {
		return d.line
	}
	d := &cachedDate{sec: sec, line: []byte("Date: " + now.UTC().Format(http.TimeFormat) + "\r\n")}
	dates.Store(d)
	return d.line
}
