package httploop

import (
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// trackedPipe returns Conns logging to the returned buffer, one of its
// Conns on the server end of a pipe, and the client end.
func trackedPipe(t *testing.T) (*Conns, *Conn, *bytes.Buffer, net.Conn) {
	t.Helper()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := NewConns(log, &http.Server{IdleTimeout: 120 * time.Second, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second})
	server, client := net.Pipe()
	c := s.Track(server)
	t.Cleanup(func() { c.Close(); client.Close() })
	return s, c, &logs, client
}

// TestConnsCountOpen: a Conn counts itself in when tracked and out once
// when closed, however often Close is called.
func TestConnsCountOpen(t *testing.T) {
	s, c, _, _ := trackedPipe(t)
	require.Equal(t, int64(1), s.Open())
	require.NoError(t, c.Close())
	_ = c.Close()
	require.Zero(t, s.Open())
}

// TestConnLogsCutOffOnce: a read deadline passing is logged once, with
// the phase the loop gave; the watch's abort (AbortRead) is no cut-off.
func TestConnLogsCutOffOnce(t *testing.T) {
	_, c, logs, _ := trackedPipe(t)
	c.SetReadDeadlineFor(AbortRead, PhaseUnknown)
	_, err := c.Read(make([]byte, 1))
	require.True(t, IsTimeout(err))
	require.Empty(t, logs.String())

	c.SetReadDeadlineFor(time.Now().Add(-time.Second), PhaseHeaders)
	for range 2 {
		_, err = c.Read(make([]byte, 1))
		require.True(t, IsTimeout(err))
	}
	require.Equal(t, 1, strings.Count(logs.String(), "connection cut off"), logs.String())
	require.Contains(t, logs.String(), "read timeout (request headers)")
}

// TestConnPhaseOfNetHTTP: a deadline net/http sets is told by the
// nearest of the Server's timeouts, and among equal ones by the
// connection's state.
func TestConnPhaseOfNetHTTP(t *testing.T) {
	s := NewConns(slog.Default(), &http.Server{IdleTimeout: 120 * time.Second, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second})
	for _, tt := range []struct {
		d    time.Duration
		st   http.ConnState
		want Phase
	}{
		{10 * time.Second, http.StateNew, PhaseHeaders},
		{60 * time.Second, http.StateActive, PhaseBody},
		{120 * time.Second, http.StateIdle, PhaseIdle},
		{119*time.Second + 500*time.Millisecond, http.StateIdle, PhaseIdle},
		{300 * time.Second, http.StateIdle, PhaseUnknown},
		{-time.Hour, http.StateNew, PhaseUnknown},
	} {
		require.Equal(t, tt.want, s.phaseOf(tt.d, tt.st), "%v in %v", tt.d, tt.st)
	}
	same := NewConns(slog.Default(), &http.Server{IdleTimeout: 10 * time.Second, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 10 * time.Second})
	require.Equal(t, PhaseIdle, same.phaseOf(10*time.Second, http.StateIdle))
	require.Equal(t, PhaseHeaders, same.phaseOf(10*time.Second, http.StateNew))
	require.Equal(t, PhaseBody, same.phaseOf(10*time.Second, http.StateActive))
}
