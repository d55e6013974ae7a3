package apiserve

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
)

// TestBudgetShares: a large body waits its turn for the budget; a small
// one is never held back by it (the small requests' share), a wait that
// ends refuses and counts, and a request larger than the budget is
// charged the whole budget.
func TestBudgetShares(t *testing.T) {
	var b Budget
	b.Init(1 << 20)
	b.Wait.Store(int64(time.Minute))
	ctx := context.Background()

	got, ok := b.more(ctx, 4<<20)
	require.True(t, ok)
	require.Equal(t, int64(1<<20), got, "a body larger than the budget is charged the whole budget")

	large := make(chan hold)
	go func() { h, _ := b.admit(ctx, 512<<10); large <- h }()
	waitQueued(t, &b)
	// A small request, while the budget is taken and a large one waits:
	// charged of the share at once.
	small, ok := b.admit(ctx, 2)
	require.True(t, ok)
	require.Equal(t, hold{small: 2}, small)
	_, share := b.Reserved()
	require.Equal(t, int64(2), share)
	b.release(small)

	b.release(hold{main: got})
	require.Equal(t, hold{main: firstCharge}, <-large, "a large body is charged its first bytes before it is read")
	b.release(hold{main: firstCharge})

	// With the budget free, a small request is charged of it.
	h, ok := b.admit(ctx, 100)
	require.True(t, ok)
	require.Equal(t, hold{main: 100}, h)
	b.release(h)

	// A wait that ends refuses the body, counted; one whose context ends
	// likewise.
	got, _ = b.more(ctx, 1<<20)
	b.Wait.Store(int64(time.Millisecond))
	_, ok = b.admit(ctx, 300<<10)
	require.False(t, ok)
	b.Wait.Store(int64(time.Minute))
	cctx, cancel := context.WithCancel(ctx)
	refused := make(chan bool)
	go func() { _, ok := b.more(cctx, 10); refused <- !ok }()
	waitQueued(t, &b)
	cancel()
	require.True(t, <-refused)
	require.Equal(t, int64(2), b.Throttled.Load())
	b.release(hold{main: got})
	used, share := b.Reserved()
	require.Zero(t, used)
	require.Zero(t, share)
	require.Equal(t, int64(1<<20), b.Peak.Load())
}

// waitQueued waits until a charge waits for the budget.
func waitQueued(t *testing.T, b *Budget) {
	t.Helper()
	for b.main.TryAcquire(0) { // succeeds while nobody waits
		time.Sleep(time.Millisecond) // polling, bounded by the test deadline
	}
}

// TestBodyReaderProof: a large body's reader charges its announced size
// only once its first proofBytes have arrived, and hands the reader of
// the body (httpedge.ReadAtMost, as readBody reads) no more than those
// before; the buffers grown meanwhile stay within the first charge.
func TestBodyReaderProof(t *testing.T) {
	var b Budget
	b.Init(64 << 20)
	const size = 4 << 20
	body := strings.Repeat("x", size)
	ctx := context.Background()
	h, ok := b.admit(ctx, size)
	require.True(t, ok)
	require.Equal(t, int64(firstCharge), h.main)
	pr, pw := io.Pipe()
	br := &bodyReader{r: pr, b: &b, ctx: ctx, full: size, held: h.main}
	go func() {
		_, _ = io.WriteString(pw, body[:proofBytes-1])
		_ = pw.Close()
	}()
	var buf bytes.Buffer
	n, err := httpedge.ReadAtMost(&buf, br, size+1, size+1)
	require.NoError(t, err)
	require.Equal(t, int64(proofBytes-1), n)
	require.LessOrEqual(t, int64(buf.Cap()), int64(firstCharge))
	used, _ := b.Reserved()
	require.Equal(t, int64(firstCharge), used, "a body short of its proof holds its first charge")

	br = &bodyReader{r: strings.NewReader(body), b: &b, ctx: ctx, full: size, held: 0}
	buf = bytes.Buffer{}
	n, err = httpedge.ReadAtMost(&buf, br, size+1, size+1)
	require.NoError(t, err)
	require.Equal(t, int64(size), n)
	require.Equal(t, int64(size), br.held, "a proven body is charged its size")
	require.LessOrEqual(t, int64(buf.Cap()), int64(size+1))
}

// TestPaceCutsStalledBody: a body that stops arriving is cut once it
// falls behind the floor (its read ended through the connection's
// deadline), one that keeps the pace is not, and the time a body waits
// for the budget is not held against it.
func TestPaceCutsStalledBody(t *testing.T) {
	pace := Pace{Floor: 1 << 10, Grace: 50 * time.Millisecond}
	server, client := tcpPair(t)
	br := &bodyReader{r: server, b: &Budget{}, ctx: context.Background(), full: 0}
	br.pace.begin(pace, server)
	_, err := client.Write([]byte("abc"))
	require.NoError(t, err)
	var buf bytes.Buffer
	n, err := httpedge.ReadAtMost(&buf, br, 1000, 1001)
	require.Error(t, err)
	require.Equal(t, int64(3), n)
	require.True(t, br.pace.end(), "cut by its pace")

	// A body that keeps its pace (ten bytes a second here) is not cut.
	server, client = tcpPair(t)
	br = &bodyReader{r: server, b: &Budget{}, ctx: context.Background()}
	br.pace.begin(Pace{Floor: 10, Grace: time.Second}, server)
	go func() {
		for range 20 {
			time.Sleep(100 * time.Microsecond)
			_, _ = client.Write([]byte("x"))
		}
		_ = client.Close()
	}()
	buf = bytes.Buffer{}
	n, err = httpedge.ReadAtMost(&buf, br, 1000, 0)
	require.NoError(t, err)
	require.Equal(t, int64(20), n)
	require.False(t, br.pace.end())

	// A pause (a wait for the budget) stops the clock: its time moves
	// the body's start on, and the timer does not cut it meanwhile.
	var p pacer
	server, _ = tcpPair(t)
	p.begin(pace, server)
	start := p.start.Load()
	since := p.pause()
	time.Sleep(4 * pace.Grace)
	require.Equal(t, paused, p.state.Load())
	p.resume(since)
	require.GreaterOrEqual(t, time.Duration(p.start.Load()-start), 4*pace.Grace, "the wait is not counted")
	require.False(t, p.end())
}

// tcpPair is the two ends of a loopback TCP connection.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	server, err = ln.Accept()
	require.NoError(t, err)
	t.Cleanup(func() { _ = server.Close(); _ = client.Close() })
	return server, client
}
