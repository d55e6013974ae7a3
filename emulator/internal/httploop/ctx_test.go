package httploop

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// countingConn counts the read deadlines set on a connection.
type countingConn struct {
	net.Conn
	set atomic.Int32
}

func (c *countingConn) SetReadDeadline(t time.Time) error {
	c.set.Add(1)
	return c.Conn.SetReadDeadline(t)
}

// pipeContext returns a ConnContext reset on the server end of a pipe,
// the server end and the client end.
func pipeContext(t *testing.T, parent context.Context) (*ConnContext, *countingConn, *bufio.Reader, net.Conn) {
	t.Helper()
	server, client := net.Pipe()
	t.Cleanup(func() { server.Close(); client.Close() })
	conn := &countingConn{Conn: server}
	br := bufio.NewReader(conn)
	c := &ConnContext{}
	c.Reset(parent, br, conn)
	return c, conn, br, client
}

// closed reports whether ch closes within 20 seconds.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(20 * time.Second):
		return false
	}
}

// TestConnContextNoWaitNoWatch: a request that never asks for Done sets
// no deadline on its connection and starts no watch.
func TestConnContextNoWaitNoWatch(t *testing.T) {
	c, conn, _, _ := pipeContext(t, context.Background())
	require.NoError(t, c.Err())
	c.Finish()
	require.Zero(t, conn.set.Load())
	require.NoError(t, c.Err())
}

// TestConnContextClientLeaves: the client closing its end cancels the
// request's context, not the parent's.
func TestConnContextClientLeaves(t *testing.T) {
	parent := context.Background()
	c, _, _, client := pipeContext(t, parent)
	done := c.Done()
	require.NoError(t, client.Close())
	require.True(t, closed(done), "the context did not end when its client left")
	require.ErrorIs(t, c.Err(), context.Canceled)
	require.NoError(t, parent.Err())
	c.Finish()
}

// TestConnContextPipelinedByteKept: a byte of the next request ends the
// watch without cancelling, and stays in the buffer for that request.
func TestConnContextPipelinedByteKept(t *testing.T) {
	c, _, br, client := pipeContext(t, context.Background())
	done := c.Done()
	_, err := client.Write([]byte("P")) // a pipe's write returns once the watch has read it
	require.NoError(t, err)
	c.Finish()
	require.NoError(t, c.Err())
	select {
	case <-done:
		t.Fatal("the context ended on a pipelined byte")
	default:
	}
	require.Equal(t, 1, br.Buffered())
	b, err := br.ReadByte()
	require.NoError(t, err)
	require.Equal(t, byte('P'), b)
}

// TestConnContextFinishEndsWatch: Finish aborts a watch that saw nothing;
// the context is not cancelled, and a client leaving after it cancels
// nothing.
func TestConnContextFinishEndsWatch(t *testing.T) {
	c, _, br, client := pipeContext(t, context.Background())
	done := c.Done()
	c.Finish()
	require.NoError(t, c.Err())
	require.NoError(t, client.Close())
	_, err := br.Peek(1)
	require.ErrorIs(t, err, io.EOF)
	select {
	case <-done:
		t.Fatal("the context ended after Finish")
	default:
	}
	require.NoError(t, c.Err())
}

// TestConnContextParentCancels: the parent's end (the Server's Close)
// ends the request's context, with the parent's error.
func TestConnContextParentCancels(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	c, _, _, _ := pipeContext(t, parent)
	done := c.Done()
	cancel()
	require.True(t, closed(done), "the context did not end with its parent")
	require.ErrorIs(t, c.Err(), context.Canceled)
	require.Equal(t, parent, c.Parent())
	c.Finish()

	// A parent already done ends the context at once.
	c.Reset(parent, bufio.NewReader(strings.NewReader("")), &countingConn{})
	require.True(t, closed(c.Done()))
	require.ErrorIs(t, c.Err(), context.Canceled)
	c.Finish()
}

// TestBody: a body reads what its Content-Length announced and no more;
// a connection that ends first is io.ErrUnexpectedEOF.
func TestBody(t *testing.T) {
	var b Body
	br := bufio.NewReader(strings.NewReader("hello, world"))
	b.Reset(br, 5)
	got, err := io.ReadAll(&b)
	require.NoError(t, err)
	require.Equal(t, "hello", string(got))
	require.Zero(t, b.Left())
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	require.Equal(t, ", world", string(rest))

	b.Reset(bufio.NewReader(strings.NewReader("abc")), 10)
	got, err = io.ReadAll(&b)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Equal(t, "abc", string(got))
	require.Equal(t, int64(7), b.Left())
}
