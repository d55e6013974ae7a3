package apiserve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
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

	got, ok := b.more(ctx, 4<<20, 0, share{})
	require.True(t, ok)
	require.Equal(t, int64(1<<20), got, "a body larger than the budget is charged the whole budget")

	large := make(chan hold)
	go func() { h, _ := b.admit(ctx, 512<<10, share{}); large <- h }()
	waitQueued(t, &b)
	// A small request, while the budget is taken and a large one waits:
	// charged of the share at once.
	small, ok := b.admit(ctx, 2, share{})
	require.True(t, ok)
	require.Equal(t, hold{small: 2}, small)
	_, smallHeld := b.Reserved()
	require.Equal(t, int64(2), smallHeld)
	b.release(small)

	b.release(hold{main: got})
	require.Equal(t, hold{main: firstCharge}, <-large, "a large body is charged its first bytes before it is read")
	b.release(hold{main: firstCharge})

	// With the budget free, a small request is charged of it.
	h, ok := b.admit(ctx, 100, share{})
	require.True(t, ok)
	require.Equal(t, hold{main: 100}, h)
	b.release(h)

	// A wait that ends refuses the body, counted; one whose context ends
	// likewise.
	got, _ = b.more(ctx, 1<<20, 0, share{})
	b.Wait.Store(int64(time.Millisecond))
	_, ok = b.admit(ctx, 300<<10, share{})
	require.False(t, ok)
	b.Wait.Store(int64(time.Minute))
	cctx, cancel := context.WithCancel(ctx)
	refused := make(chan bool)
	go func() { _, ok := b.more(cctx, 10, 0, share{}); refused <- !ok }()
	waitQueued(t, &b)
	cancel()
	require.True(t, <-refused)
	require.Equal(t, int64(2), b.Throttled.Load())
	b.release(hold{main: got})
	used, smallHeld := b.Reserved()
	require.Zero(t, used)
	require.Zero(t, smallHeld)
	require.Equal(t, int64(1<<20), b.Peak.Load())
}

// TestClientBodiesDoNotWaitOnOneAnother: a client's large bodies that
// each hold their first charge, none with room in the share for its
// rest, do not wait on one another until their waits end (as they did,
// throttled, when 32 clients of one access key sent 16 MB each): the
// last of them to ask is let in at once, over the share by its rest
// (its client then holds at most twice its share), the others follow as
// it ends, and another client's body is charged meanwhile without a
// wait.
func TestClientBodiesDoNotWaitOnOneAnother(t *testing.T) {
	var b Budget
	b.Init(64 << 20) // a share of 16 MiB
	b.Wait.Store(int64(time.Minute))
	ctx := context.Background()
	const size = 15_700_000
	one, other := share{client: "AKIDONE", on: true}, share{client: "AKIDOTHER", on: true}

	const bodies = 18 // with seventeen first charges, no rest fits the share
	for range bodies {
		h, ok := b.admit(ctx, size, one)
		require.True(t, ok)
		require.Equal(t, int64(firstCharge), h.main)
	}
	done := make(chan bool, bodies)
	for i := range bodies - 1 {
		go func() {
			got, ok := b.more(ctx, size-firstCharge, firstCharge, one)
			if ok {
				b.release(hold{main: firstCharge + got, client: one})
			}
			done <- ok
		}()
		waitWaiting(t, &b, one.client, int64(i+1)*firstCharge)
	}
	require.Zero(t, b.Throttled.Load())
	require.Empty(t, done, "the rest of a body fitted the share")

	// The last: every byte its client holds waits for more.
	got, ok := b.more(ctx, size-firstCharge, firstCharge, one)
	require.True(t, ok, "the last body to ask waited on its client's others")
	require.Equal(t, int64(size-firstCharge), got)
	require.Greater(t, b.Holding(one.client), b.Share())
	require.LessOrEqual(t, b.Holding(one.client), 2*b.Share())

	// Another client meanwhile: charged at once.
	h, ok := b.admit(ctx, size, other)
	require.True(t, ok)
	rest, ok := b.more(ctx, size-firstCharge, firstCharge, other)
	require.True(t, ok)
	b.release(hold{main: h.main + rest, client: other})
	require.Empty(t, done, "the others wait for the one let in")

	b.release(hold{main: firstCharge + got, client: one})
	for range bodies - 1 {
		require.True(t, <-done, "a body of the client waiting for its share")
	}
	require.Zero(t, b.Throttled.Load())
	require.Zero(t, b.Holding(one.client))
	used, _ := b.Reserved()
	require.Zero(t, used)
}

// waitWaiting waits until client's bodies waiting for its share hold n
// bytes.
func waitWaiting(t *testing.T, b *Budget, client string, n int64) {
	t.Helper()
	for {
		b.sharesM.Lock()
		w := b.shares[client].waiting
		b.sharesM.Unlock()
		if w == n {
			return
		}
		time.Sleep(time.Millisecond) // polling, bounded by the test deadline
	}
}

// waitQueued waits until a charge waits for the budget.
func waitQueued(t *testing.T, b *Budget) {
	t.Helper()
	for b.main.TryAcquire(0) { // succeeds while nobody waits
		time.Sleep(time.Millisecond) // polling, bounded by the test deadline
	}
}

// TestBodyReaderCharges: a large body's reader charges what the window
// the request decoder grows may hold before it holds it (the decoder's
// reader, as readBody reads it, of a body it keeps whole and of one it
// drops most of): a body that stops short holds about twice what it sent,
// and a whole body its size and a byte, its window taking its size once
// it holds an eighth of it.
func TestBodyReaderCharges(t *testing.T) {
	var b Budget
	b.Init(64 << 20)
	var body strings.Builder
	body.WriteString(`{"RequestItems":{"tab":[`)
	for i := 0; body.Len() < 4<<20; i++ {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
	}
	body.WriteString("]}}")
	size := int64(body.Len())
	ctx := context.Background()
	svc, err := service.New(service.Config{})
	require.NoError(t, err)
	t.Cleanup(svc.Close)
	decoder := func(op string) func(buf *bytes.Buffer, r io.Reader, adm interface{ Admitted() int64 }) (int64, error) {
		return func(buf *bytes.Buffer, r io.Reader, adm interface{ Admitted() int64 }) (int64, error) {
			o, err := svc.Lookup(service.TargetPrefix + op)
			require.NoError(t, err)
			body := wire.Body{R: r, Buf: buf.Bytes(), Size: size, Limit: size, Admitted: adm}
			in := svc.Decode(o, &body)
			in.Release()
			return body.N, body.Err
		}
	}
	readers := map[string]func(buf *bytes.Buffer, r io.Reader, adm interface{ Admitted() int64 }) (int64, error){
		"kept whole": decoder("PutItem"), // a member PutItem does not take: skipped, kept
		"dropped":    decoder("BatchWriteItem"),
	}
	for name, read := range readers {
		for _, ahead := range []bool{false, true} {
			t.Run(fmt.Sprint(name, "/ahead=", ahead), func(t *testing.T) {
				b.aheadMax = 0
				if ahead {
					b.aheadMax = b.Max / aheadPart
				}
				for _, sent := range []int{10 << 10, 100 << 10, 1 << 20, int(size)} {
					h, ok := b.admit(ctx, size, share{})
					require.True(t, ok)
					require.Equal(t, hold{main: firstCharge}, h)
					br := &bodyReader{r: strings.NewReader(body.String()[:sent]), b: &b, ctx: ctx, full: size + 1, held: h.main}
					rec := &roomRecorder{r: br, br: br}
					var buf bytes.Buffer
					buf.Grow(initialBodyBytes) // as readBody does
					n, _ := read(&buf, rec, br)
					t.Logf("%d bytes sent: buffers of %d bytes, %d charged", sent, rec.most, br.held)
					require.Equal(t, int64(sent), n)
					require.Zero(t, rec.over, "the window outgrew the charge")
					used, _ := b.Reserved()
					require.Equal(t, br.held, used)
					switch {
					case ahead:
						require.Equal(t, size+1, br.held, "a young body is charged its size with its first read")
					case sent < int(size)/8:
						require.LessOrEqual(t, br.held, max(2*int64(sent)+readChunk, firstCharge)+budgetChunk, "a body that stops short holds what it sent")
					default:
						require.Equal(t, size+1, br.held, "a body past an eighth is charged its size")
					}
					var end hold
					br.ended(&end)
					b.release(end)
					require.Zero(t, b.aheadHeld.Load(), "what it held ahead given back")
				}
			})
		}
	}
}

// TestAheadChargeBounded: the bodies charged ahead of their bytes hold
// at most aheadMax between them (one past it grows as its bytes prove),
// and one that then stops arriving is judged while its read waits: slow
// once it has waited stallAge with no byte, and cut (errSlowBodies, its read ended by the
// connection's deadline) when the slow bodies' share has no room for it.
func TestAheadChargeBounded(t *testing.T) {
	var b Budget
	b.Init(64 << 20) // 8 MiB ahead, a slow share of 16 MiB
	ctx := context.Background()
	const size = 3 << 20
	var held []*bodyReader
	for i := range 3 {
		br := &bodyReader{r: strings.NewReader(strings.Repeat(" ", 8<<10)), b: &b, ctx: ctx, full: size + 1}
		_, err := br.Read(make([]byte, 8<<10))
		require.NoError(t, err)
		if i < 2 {
			require.Equal(t, int64(size+1), br.held, "charged ahead")
		} else {
			require.Less(t, br.held, int64(size), "past aheadMax: charged what its bytes prove")
		}
		held = append(held, br)
	}
	require.LessOrEqual(t, b.aheadHeld.Load(), b.aheadMax)
	for _, br := range held {
		var h hold
		br.ended(&h)
		b.release(h)
	}
	require.Zero(t, b.aheadHeld.Load())

	// Stops after its first read, the slow share full: cut.
	b.slowHeld.Add(b.slowMax)
	defer b.slowHeld.Add(-b.slowMax)
	server, client := tcpPair(t)
	br := &bodyReader{r: server, b: &b, ctx: ctx, full: size + 1}
	br.pace.begin(Pace{Floor: 1, Grace: time.Minute}, server) // the floor far off
	_, err := client.Write(make([]byte, 8<<10))
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = buf.ReadFrom(br)
	require.ErrorIs(t, err, errSlowBodies)
	require.False(t, br.slow, "refused, not counted among the slow bodies")
	require.Equal(t, b.slowMax, b.slowHeld.Load())
	require.False(t, br.pace.end(), "cut by its judge, not by its pace")
	var h hold
	br.ended(&h)
	b.release(h)
	require.Zero(t, b.aheadHeld.Load())
	used, _ := b.Reserved()
	require.Zero(t, used)
}

// roomRecorder records the most bytes read and room offered at once: the
// size of the buffers its reader grew.
type roomRecorder struct {
	r          io.Reader
	br         *bodyReader // its charge: the room offered never passes it
	read, most int64
	over       int64 // the most room offered past the charge
}

func (rr *roomRecorder) Read(p []byte) (int, error) {
	rr.most = max(rr.most, rr.read+int64(len(p)))
	rr.over = max(rr.over, rr.most-rr.br.held)
	n, err := rr.r.Read(p)
	rr.read += int64(n)
	return n, err
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
	n, err := buf.ReadFrom(io.LimitReader(br, 1000))
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
	n, err = buf.ReadFrom(io.LimitReader(br, 1000))
	require.NoError(t, err)
	require.Equal(t, int64(20), n)
	require.False(t, br.pace.end())

	// The clock runs only in reads: between them (the server decoding,
	// inflating, waiting for the budget) the timer does not cut the body,
	// and its window moves on by the pause when it resumes.
	var p pacer
	server, _ = tcpPair(t)
	p.begin(pace, server)
	require.Equal(t, paused, p.state.Load(), "paused until its first read")
	p.resume()
	p.pause()
	mark := p.mark.Load()
	time.Sleep(8 * pace.Grace)
	require.Equal(t, paused, p.state.Load())
	p.resume()
	require.GreaterOrEqual(t, p.mark.Load()-mark, int64(8*pace.Grace), "the window moved on by the pause")
	require.False(t, p.end())

	// The floor is measured over a window: a body that sent 64 windows'
	// worth at once and then stops is cut in a later window (averaged
	// over the body, it would have banked a minute).
	fast, sender := tcpPair(t)
	br = &bodyReader{r: fast, b: &Budget{}, ctx: context.Background()}
	br.pace.begin(pace, fast)
	_, err = sender.Write(make([]byte, 64<<10))
	require.NoError(t, err)
	buf = bytes.Buffer{}
	n, err = buf.ReadFrom(io.LimitReader(br, 1<<20))
	require.Error(t, err)
	require.Equal(t, int64(64<<10), n)
	require.True(t, br.pace.end(), "cut by its pace")
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
