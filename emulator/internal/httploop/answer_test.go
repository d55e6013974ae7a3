package httploop

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestStatusLineIsNetHTTPs: the status line of each code, in either
// version, is the one net/http writes.
func TestStatusLineIsNetHTTPs(t *testing.T) {
	for _, code := range []int{200, 400, 403, 413, 500, 503, 299, 999} {
		for _, http10 := range []bool{false, true} {
			req := &http.Request{ProtoMajor: 1, ProtoMinor: 1}
			if http10 {
				req.ProtoMinor = 0
			}
			res := &http.Response{StatusCode: code, ProtoMajor: 1, ProtoMinor: req.ProtoMinor, Request: req, Header: http.Header{}}
			var b strings.Builder
			require.NoError(t, res.Write(&b))
			want, _, _ := strings.Cut(b.String(), "\r\n")
			require.Equal(t, want+"\r\n", StatusLine(code, http10), "code %d, HTTP/1.0 %v", code, http10)
		}
	}
}

// TestDateLine: the Date line is net/http's format of the time given, in
// UTC, and a new second gets a new line.
func TestDateLine(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	require.Equal(t, "Date: Fri, 02 Jan 2026 02:04:05 GMT\r\n", string(DateLine(at)))
	require.Equal(t, "Date: Fri, 02 Jan 2026 02:04:05 GMT\r\n", string(DateLine(at.Add(500*time.Millisecond))))
	require.Equal(t, "Date: Fri, 02 Jan 2026 02:04:06 GMT\r\n", string(DateLine(at.Add(time.Second))))
}

// TestListenerHandsOver: a connection given is the one Accept returns,
// with its bytes; after Close, Accept ends with net.ErrClosed and a Give
// whose stop is closed gives up.
func TestListenerHandsOver(t *testing.T) {
	l := NewListener()
	require.Equal(t, "dynamoemu-loop", l.Addr().Network())
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	took := make(chan bool)
	go func() { took <- l.Give(a, make(chan struct{})) }()
	c, err := l.Accept()
	require.NoError(t, err)
	require.True(t, <-took)
	go func() { _, _ = b.Write([]byte("hello\n")) }()
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "hello\n", line)

	require.NoError(t, l.Close())
	require.NoError(t, l.Close())
	_, err = l.Accept()
	require.ErrorIs(t, err, net.ErrClosed)
	stop := make(chan struct{})
	close(stop)
	require.False(t, l.Give(a, stop))
}
