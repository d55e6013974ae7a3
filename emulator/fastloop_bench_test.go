package emulator

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

// BenchmarkLoopConnection: a connection per request, as a client without
// keep-alive makes them: what the loop's per-connection reader and answer
// buffer cost each connection.
func BenchmarkLoopConnection(b *testing.B) {
	e := newTestEmulator(b, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	srv := e.NewServer(ServerOptions{Loop: HTTPLoop("")})
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	body := `{"TableName":"orders","Item":` + testkit.Item240 + `}`
	req := "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Amz-Target: " + echo +
		"\r\nAuthorization: " + testkit.DefaultAuth + "\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	b.ReportAllocs()
	for b.Loop() {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(b, err)
		_, err = io.WriteString(c, req)
		require.NoError(b, err)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(b, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		require.Equal(b, http.StatusOK, res.StatusCode)
		c.Close()
	}
}
