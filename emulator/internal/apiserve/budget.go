package apiserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The budget of request bytes in flight (the emulator's
// Options.MaxRequestBytesInFlight): what the bodies of the requests being
// read or served hold, counted together, so that the heap holds at most
// the budget of bodies, and the small requests' share beside it. A body
// is charged by what its sender has proven, not by what it announces,
// and judged by what it does, not by the access key it signs with
// (without Credentials a key is whatever the client writes):
//
//   - A small body (at most SmallBody bytes announced) is charged whole
//     before it is read: from the budget when it has room and no request
//     waits for it, else from the small requests' share (a sixteenth of
//     the budget, at least SmallBody), where it waits only behind other
//     small ones. A large body waiting never refuses a small request.
//   - A larger body is charged firstCharge bytes (or its size) before it
//     is read, then, as its bytes arrive and before its window
//     (wire.Body) grows to hold them, what the window can grow to
//     (windowFor: twice what arrived and a read's room, its size once an
//     eighth of it has arrived), in steps of budgetChunk at least. A
//     client that announces 16 MB and sends a byte holds firstCharge;
//     one that sends 64 KiB and trickles holds about twice what it sent.
//     A body of unknown length (chunked) likewise.
//   - A young body of known size is charged its size with its first read
//     when the budget has the room now (chargeAhead), the bodies so
//     charged holding at most aheadMax between them.
//   - A compressed body is read whole, charged as any body, inflated once
//     into nothing (413 past the limit), then charged twice its inflated
//     size at once (chargeInflated: its window and its decoded strings)
//     before its window is allocated.
//   - A body is slow once it arrived slower than FastRate over a stretch
//     of at least youngAge of its client's time (the time spent in its
//     reads: what the server spends between them, decoding, inflating or
//     waiting for the budget, is the server's): slowAt. The slow bodies
//     hold at most slowMax between them (a quarter of the budget, at
//     least one body of the largest; a body alone always fits): a slow
//     body whose next charge does not fit is refused (errSlowBodies),
//     throttled with its connection closed and its body unread. A body
//     that arrives faster never waits on them: three quarters of the
//     budget are beyond their reach however many connections or keys
//     they use.
//
// A charge that does not fit waits its turn, first come first served, for
// at most BudgetWait; then the body is read away, kept nowhere, and the
// request answered with AWS's ThrottlingException (and Retry-After),
// which the SDKs retry with back-off. While a charge waits its body stays
// in the kernel's socket buffers: TCP's flow control holds the client
// back, and the body's pace is not counted. A body holds what it was
// charged until its request is answered. Bodies that each hold part of
// the budget and wait for more could wait on one another until
// BudgetWait (64 compressed bodies inflating 10 MB each under 256 MiB
// all did): one that holds some and has waited stuckWait takes its whole
// rest from the overflow (overflowBytes, at most a quarter of the
// budget) when that has room, so the
// bytes charged peak at the budget and the overflow.
//
// The FIFO is golang.org/x/sync/semaphore's Weighted: a waiter that does
// not fit holds back those behind it (a large body is not starved by
// small ones), and one whose wait ends lets those behind it in.
//
// With Credentials, where keys are real, a client's large bodies (its
// access key's) also hold at most its share of the budget between them
// (ShareOfBudget), and a connection, which sends one body at a time, at
// most that share too. A charge over its client's share waits outside
// the FIFO, for one of that client's own bodies to end, so that it holds
// back nobody else's. Its bodies never wait on one another: when every
// byte a client holds is held by bodies waiting for more, one of them is
// let in over the share, so that a client holds at most twice its share.
//
// The limit: a body that sends an eighth of its size at full speed (or
// is charged ahead) and then nothing holds its size until it is judged
// slow while its read waits (check: once it has waited stallAge of its
// client's time with no byte); then, when the slow bodies' share has room for it, until the
// floor cuts it (pace.go), bounded by that share meanwhile.

// BudgetWait is the longest a request waits for room in the budget before
// it is throttled: well inside the server's read timeout
// (DefaultReadTimeout), which bounds reading its body after the wait.
const BudgetWait = 10 * time.Second

// SmallBody is the largest body of a small request, which the small
// requests' share serves: every control-plane call (a CreateTable with
// twenty indexes is a few KB), every read of a key (a GetItem's key is at
// most 3 KB) and the writes of items of common sizes.
const SmallBody = 64 << 10

// firstCharge is what a larger body is charged before its first byte:
// what its reader's window (wire.Body) holds while its first bytes
// arrive: the window it starts with, and a read chunk of 32 KB.
const firstCharge = 64 << 10

// readChunk is the most a read of a body adds to its window at once
// (wire.Body's).
const readChunk = 32 << 10

// The slow bodies: a body is slow once it has been read for youngAge of
// its client's time (the time the server waited in its reads) and
// arrived slower than FastRate over it. The slow bodies hold at most
// ShareOfBudget's part of the budget between them (slowMax).
const (
	FastRate = 256 << 10   // bytes a second: a 2 Mbit/s link's
	youngAge = time.Second // of the client's time
	// stallAge: a body that holds more than its bytes prove is slow
	// once its read has waited this long with no byte (check).
	stallAge = youngAge / 4
)

// arrivedWait is the longest a compressed body whose bytes have all
// arrived waits for the charge of its inflated bytes (chargeInflated):
// boto3's read timeout, which its client waits for an answer anyway.
const arrivedWait = 60 * time.Second

// overflowBytes is the most that bodies that hold part of the budget and
// wait for more may take over it (and a quarter of it), each for its
// whole rest, so that they do not wait on one another: the budget's peak
// is at most its size and this.
const overflowBytes = 64 << 20

// stuckWait is how long a body that holds part of the budget waits in
// its queue for more before it tries the overflow.
const stuckWait = 100 * time.Millisecond

// ShareOfBudget: a client's large bodies hold at most 1/ShareOfBudget of
// the budget between them (but always one body of the API's largest,
// 16 MB, when the budget has room for it): a quarter leaves three
// quarters to the others whatever one client does, and still serves a
// client's four largest bodies at once under the default budget of
// 256 MiB.
const ShareOfBudget = 4

// largestBody is the API's body limit, which a client's share always
// holds (when the budget does).
const largestBody = 16 << 20

// aheadPart: the bodies charged their size ahead of their bytes
// (chargeAhead) hold at most 1/aheadPart of the budget so between them,
// 32 MiB of the default 256 MiB: two of the API's largest bodies, eight
// of 4 MB.
const aheadPart = 8

// budgetChunk is the least a body of unknown length is charged at a time
// once its first charge is used.
const budgetChunk = 256 << 10

// Budget admits request bodies by their bytes, in order of arrival. Init
// sets it before the first request; tests set Wait and SetPace then.
type Budget struct {
	Max  int64        // 0: no budget
	Wait atomic.Int64 // the longest wait in nanoseconds: BudgetWait; tests shorten it

	main        *semaphore.Weighted // Max bytes
	small       *semaphore.Weighted // the small requests' share
	overflow    *semaphore.Weighted // overflowMax, for the bodies that would wait on one another
	overflowMax int64
	pace        atomic.Pointer[Pace]

	slowMax  int64        // the most the slow bodies hold between them
	slowHeld atomic.Int64 // what they hold now

	aheadMax  int64        // the most the bodies charged ahead of their bytes hold so between them
	aheadHeld atomic.Int64 // what they hold so now

	share   int64 // the most one client's large bodies hold (ShareOfBudget)
	sharesM sync.Mutex
	shares  map[string]clientShare // each client holding any bytes
	freed   chan struct{}          // closed (and replaced) when a client's bytes are given back

	used      atomic.Int64 // bytes of main held now
	smallUsed atomic.Int64 // bytes of the share held now
	Peak      atomic.Int64 // the most of main held at once (tests, reports)
	Throttled atomic.Int64 // requests refused for want of room
}

// Init sets a budget of n bytes (0: none), with the default wait and
// pace.
func (b *Budget) Init(n int64) {
	b.Max = n
	if n > 0 {
		b.main = semaphore.NewWeighted(n)
		b.small = semaphore.NewWeighted(max(n/16, SmallBody))
		b.share = max(n/ShareOfBudget, min(n, largestBody))
		b.slowMax = b.share
		b.aheadMax = n / aheadPart
		b.overflowMax = min(overflowBytes, n/ShareOfBudget)
		b.overflow = semaphore.NewWeighted(b.overflowMax)
		b.shares = map[string]clientShare{}
		b.freed = make(chan struct{})
		keepMemoryLimit(n) // memlimit.go
	}
	b.Wait.Store(int64(BudgetWait))
	b.SetPace(DefaultPace)
}

// SetPace sets the pace bodies read from now on keep (pace.go).
func (b *Budget) SetPace(p Pace) { b.pace.Store(&p) }

// Pace is the pace bodies keep.
func (b *Budget) Pace() Pace { return *b.pace.Load() }

// Reserved returns the bytes held now of the budget and of the small
// requests' share.
func (b *Budget) Reserved() (budget, share int64) { return b.used.Load(), b.smallUsed.Load() }

// hold is what one request holds: bytes of the budget and of the small
// requests' share, and the client whose share the bytes of the budget
// count against (a large body's).
type hold struct {
	main, small int64
	over        int64 // of the overflow
	client      share
}

// share is the client a charge counts against; the zero share: none (a
// small body's).
type share struct {
	client string
	on     bool
}

// admit charges a body of announced size n (-1: unknown) what it is
// charged before it is read, waiting at most b.Wait or until ctx ends; a
// large body's charge counts against its client's share (sh).
func (b *Budget) admit(ctx context.Context, n int64, sh share) (hold, bool) {
	if n >= 0 && n <= SmallBody {
		if b.main.TryAcquire(n) {
			b.took(n)
			return hold{main: n}, true
		}
		if !b.acquire(ctx, b.small, n, 0) {
			return hold{}, false
		}
		b.smallUsed.Add(n)
		return hold{small: n}, true
	}
	first := int64(firstCharge)
	if n >= 0 {
		first = min(n, first)
	}
	got, ok := b.more(ctx, first, 0, sh)
	return hold{main: got, client: sh}, ok
}

// more charges n more bytes of the budget to a body that holds own
// already, within sh's share, waiting as admit does; it returns the
// bytes charged (none past the most a body holds: bodyRoom).
func (b *Budget) more(ctx context.Context, n, own int64, sh share) (int64, bool) {
	n = min(max(n, 0), b.bodyRoom(sh)-own)
	if n <= 0 {
		return 0, true
	}
	if sh.on && !b.takeShare(ctx, sh.client, n, own, nil) {
		return 0, false
	}
	got, ok := b.moreOfMain(ctx, n, 0)
	if !ok && sh.on {
		b.giveShare(sh.client, n)
	}
	return got, ok
}

// moreOfMain charges n bytes (at most the budget) of the budget alone,
// waiting its turn in the FIFO (at most wait; 0: b.Wait).
func (b *Budget) moreOfMain(ctx context.Context, n int64, wait time.Duration) (int64, bool) {
	if !b.acquire(ctx, b.main, n, wait) {
		return 0, false
	}
	b.took(n)
	return n, true
}

// bodyRoom is the most one body is charged: the budget, and within a
// share (sh), the share. A body larger is served past it uncharged,
// alone rather than never.
func (b *Budget) bodyRoom(sh share) int64 {
	if sh.on {
		return b.share
	}
	return b.Max
}

// clientShare is what one client's large bodies hold of its share:
// held, and of that, waiting: the bytes of its bodies that wait for
// more of it.
type clientShare struct{ held, waiting int64 }

// takeShare counts n bytes against client's share for a body that
// holds own of it already, waiting at most b.Wait (outside the budget's
// FIFO) for the client's other bodies to give back enough, or until the
// body's pace (p, nil for none) cuts it: the wait is the client's own
// doing, so its pace keeps counting. A client holding nothing is always
// let in, so that a body larger than the share is served alone rather
// than never; and a body already holding some is let in over the share
// when every byte its client holds is held by bodies waiting for more,
// so that the client's bodies never wait on one another (each holding a
// first charge, none with room for its rest): at most one body at a time
// is over, and by at most its own charge (bodyRoom), so that a client
// holds at most twice its share. A refusal counts as a throttle.
func (b *Budget) takeShare(ctx context.Context, client string, n, own int64, p *pacer) bool {
	var timer <-chan time.Time
	var cut <-chan struct{}
	b.sharesM.Lock()
	defer b.sharesM.Unlock()
	b.waitingFor(client, own)
	defer b.waitingFor(client, -own)
	for {
		if c := b.shares[client]; c.held == 0 || c.held+n <= b.share || (own > 0 && c.held == c.waiting) {
			c.held += n
			b.shares[client] = c
			return true
		}
		freed := b.freed
		b.sharesM.Unlock()
		if timer == nil {
			t := time.NewTimer(time.Duration(b.Wait.Load()))
			defer t.Stop()
			timer, cut = t.C, p.cutSignal()
		}
		select {
		case <-freed:
			b.sharesM.Lock()
			continue
		case <-timer:
		case <-ctx.Done():
		case <-cut:
		}
		b.Throttled.Add(1)
		b.sharesM.Lock()
		return false
	}
}

// waitingFor counts n more bytes of client's as waiting for its share
// (n < 0: fewer), with sharesM held.
func (b *Budget) waitingFor(client string, n int64) {
	if n != 0 {
		c := b.shares[client]
		c.waiting += n
		b.shares[client] = c
	}
}

// giveShare gives n bytes back to client's share and wakes the charges
// waiting for a share.
func (b *Budget) giveShare(client string, n int64) {
	if n <= 0 {
		return
	}
	b.sharesM.Lock()
	if c := b.shares[client]; c.held > n {
		c.held -= n
		b.shares[client] = c
	} else {
		delete(b.shares, client)
	}
	close(b.freed)
	b.freed = make(chan struct{})
	b.sharesM.Unlock()
}

// Share is the most one client's large bodies hold (tests, reports).
func (b *Budget) Share() int64 { return b.share }

// Holding is the bytes client's large bodies hold now.
func (b *Budget) Holding(client string) int64 {
	b.sharesM.Lock()
	defer b.sharesM.Unlock()
	return b.shares[client].held
}

// acquire takes n of sem, waiting its turn at most wait (0: b.Wait).
func (b *Budget) acquire(ctx context.Context, sem *semaphore.Weighted, n int64, wait time.Duration) bool {
	if sem.TryAcquire(n) {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, b.waitOr(wait))
	defer cancel()
	if sem.Acquire(ctx, n) != nil {
		b.Throttled.Add(1)
		return false
	}
	return true
}

// waitOr is wait, or when 0 the budget's wait.
func (b *Budget) waitOr(wait time.Duration) time.Duration {
	if wait > 0 {
		return wait
	}
	return time.Duration(b.Wait.Load())
}

// took counts n bytes of main taken.
func (b *Budget) took(n int64) {
	u := b.used.Add(n)
	memKeep.used.Add(n)
	for p := b.Peak.Load(); u > p && !b.Peak.CompareAndSwap(p, u); p = b.Peak.Load() {
	}
}

// release gives back what h holds.
func (b *Budget) release(h hold) {
	if h.client.on {
		b.giveShare(h.client.client, h.main)
	}
	if h.main > 0 {
		b.used.Add(-h.main)
		memKeep.used.Add(-h.main)
		b.main.Release(h.main)
	}
	if h.small > 0 {
		b.smallUsed.Add(-h.small)
		b.small.Release(h.small)
	}
	if h.over > 0 {
		b.used.Add(-h.over)
		memKeep.used.Add(-h.over)
		b.overflow.Release(h.over)
	}
}

// SlowHeld is what the slow bodies hold now (tests, reports).
func (b *Budget) SlowHeld() int64 { return b.slowHeld.Load() }

// Overflow is the most the budget's charges pass it by (grow).
func (b *Budget) Overflow() int64 { return b.overflowMax }

// AheadShare is the most the bodies charged ahead of their bytes hold
// between them (tests, reports).
func (b *Budget) AheadShare() int64 { return b.aheadMax }

// SlowShare is the most the slow bodies hold between them.
func (b *Budget) SlowShare() int64 { return b.slowMax }

// grow charges n more bytes of the budget to a body that holds own of it
// already and may need rest more in all (n included), waiting its turn
// in the FIFO. A body that holds some waits there stuckWait at most;
// then, when the overflow has room for its whole rest (0: none is
// taken), it takes that
// instead (over): bodies that each hold part of the budget and wait for
// more would otherwise wait on one another until BudgetWait (64 bodies
// inflating 10 MB each under a budget of 256 MiB all did).
func (b *Budget) grow(ctx context.Context, n, own, rest int64, wait time.Duration) (got, over int64, ok bool) {
	if b.main.TryAcquire(n) {
		b.took(n)
		return n, 0, true
	}
	if own <= 0 {
		got, ok = b.moreOfMain(ctx, n, wait)
		return got, 0, ok
	}
	// It holds some: its turn in the FIFO, a moment at a time, the
	// overflow tried between (the FIFO's turn is lost: the others that
	// hold some try it too).
	deadline := time.Now().Add(b.waitOr(wait))
	for {
		step := time.Now().Add(stuckWait)
		if step.After(deadline) {
			step = deadline
		}
		wctx, cancel := context.WithDeadline(ctx, step)
		err := b.main.Acquire(wctx, n)
		cancel()
		if err == nil {
			b.took(n)
			return n, 0, true
		}
		if rest >= n && rest <= b.overflowMax && b.overflow.TryAcquire(rest) {
			b.took(rest)
			return 0, rest, true
		}
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			b.Throttled.Add(1)
			return 0, 0, false
		}
	}
}

// bodyReader reads a body with the budget on: it keeps the body's pace
// (pace.go) when the body is still arriving, and charges it what its
// window may grow to as its bytes arrive, and a compressed body's as
// they are inflated (inflated), by the rules above. handle releases
// what it holds once the request is answered.
//
// A body charged more than its bytes prove (ahead of them, or its size
// from an eighth) is also judged while its read waits (check): the one
// that stops arriving turns slow once its read has waited stallAge of
// its client's time with no byte, not only at its next read, and is cut
// then when the slow bodies' share has no room for it.
type bodyReader struct {
	r    io.Reader
	b    *Budget
	ctx  context.Context
	full int64 // its size and a byte, charged as it arrives; -1: unknown; 0: charged whole already (a small body)
	most int64 // the most it is charged (and bodyRoom); 0: full (a compressed body's: chargeInflated)
	held int64 // bytes of the budget charged for it
	over int64 // of them, bytes of the overflow
	pace pacer
	sh   share // the client whose share its charges count against (with Credentials)

	ahead int64         // of held, what counts against the bodies charged ahead (chargeAhead)
	wait  time.Duration // the longest its charges wait; 0: the budget's (Wait)

	// The fields below are the reader's outside its reads, and, once the
	// body is judged while it reads (judge set), the judge's (check)
	// during them: mu orders the two.
	mu        sync.Mutex
	read      int64         // bytes arrived
	waited    time.Duration // the time spent in reads: the client's
	markAt    time.Duration // the client's time the judged stretch began (slowAt)
	markRead  int64         // the bytes arrived then
	slow      bool          // its charges count against the slow bodies' share
	inRead    bool          // a read waits for the client
	readStart time.Time     // when it began
	judge     *time.Timer   // runs check while the body holds more than its bytes prove
	cutSlow   bool          // check cut its read: errSlowBodies
	done      bool          // ended
}

func (br *bodyReader) Read(p []byte) (int, error) {
	n, err := br.readRaw(p)
	if err == errSlowBodies {
		return n, err
	}
	// Judged at each read, charged or not: a body charged its whole size
	// that then trickles is counted among the slow bodies too.
	if br.held > 0 && !br.judgeAt(br.waited, false) {
		return n, errSlowBodies
	}
	if br.full != 0 {
		br.chargeAhead()
		if cerr := br.chargeTo(windowFor(br.read, br.full)); cerr != nil {
			return n, cerr
		}
		if br.ahead > 0 && 8*br.read >= br.full { // its bytes prove it now
			br.giveAhead()
		}
		br.startJudge()
	}
	return n, err
}

// windowFor is the most the window of a body of full bytes (its size
// and a byte; -1: unknown) grows to once read bytes have arrived, as
// wire.Body grows it: doubling (twice what arrived, and the room of a
// read), and its size once it would hold an eighth of it.
func windowFor(read, full int64) int64 {
	w := max(2*read, initialBodyBytes) + readChunk
	if full > 0 && (8*read >= full || w >= full) {
		return full
	}
	return w
}

// Admitted is how many of the body's bytes it has been charged: its
// window (wire.Body) grows to the body's size once that covers it.
func (br *bodyReader) Admitted() int64 { return br.held }

// readRaw reads the body as it is, counting its bytes for the pace; the
// body's clock (its pace's, and waited) runs only while it is read: the
// time the server spends on it between reads (decoding, inflating,
// waiting for the budget) is the server's, not its client's.
func (br *bodyReader) readRaw(p []byte) (int, error) {
	start := time.Now()
	br.mu.Lock()
	br.inRead, br.readStart = true, start
	br.mu.Unlock()
	br.pace.resume()
	n, err := br.r.Read(p)
	br.pace.pause()
	br.mu.Lock()
	br.inRead = false
	br.waited += time.Since(start)
	br.read += int64(n)
	cut := br.cutSlow
	br.mu.Unlock()
	br.pace.arrived(br.read)
	if cut {
		return n, errSlowBodies
	}
	return n, err
}

// chargeAhead charges a young body of known size (not slow, read for
// less than youngAge of its client's time) its whole size at once,
// ahead of its bytes, when the budget has the room now and nobody waits
// for it (it never waits) and the bodies charged ahead hold at most
// aheadMax between them: an honest body sent at once is charged with its
// first read, and its window takes its size in one allocation
// (wire.Body.Admitted). What it holds counts against aheadMax until an
// eighth of it has arrived (its size is charged then anyway), it turns
// slow (its charge counts against the slow bodies' share then), or it
// ends. It must have sent its first window (initialBodyBytes) first: one
// that announces 16 MB and sends a byte holds its first charge. With
// Credentials a client's share bounds its bodies instead: none is
// charged ahead.
func (br *bodyReader) chargeAhead() {
	if br.full <= 0 || br.ahead > 0 || br.slow || br.waited >= youngAge || br.sh.on || br.read < initialBodyBytes {
		return
	}
	b := br.b
	room := min(b.bodyRoom(br.sh), br.full)
	n := room - br.held
	if n <= 0 || windowFor(br.read, br.full) >= room {
		return
	}
	if b.aheadHeld.Add(n) > b.aheadMax {
		b.aheadHeld.Add(-n)
		return
	}
	if !b.main.TryAcquire(n) {
		b.aheadHeld.Add(-n)
		return
	}
	b.took(n)
	br.held += n
	br.ahead = n
}

// giveAhead gives back what the body counts against the bodies charged
// ahead.
func (br *bodyReader) giveAhead() {
	if br.ahead > 0 {
		br.b.aheadHeld.Add(-br.ahead)
		br.ahead = 0
	}
}

// startJudge starts judging the body while it reads (check) once it
// holds more than its bytes prove, where its read can be cut (paced).
func (br *bodyReader) startJudge() {
	if br.judge != nil || br.pace.conn == nil || !br.unproven() {
		return
	}
	br.mu.Lock()
	br.judge = time.AfterFunc(stallAge, br.check)
	br.mu.Unlock()
}

// unproven reports whether the body holds more than its bytes prove:
// more than its window grows to by them alone (windowFor, its size
// unknown) and a charge's step.
func (br *bodyReader) unproven() bool {
	return br.held > windowFor(br.read, -1)+budgetChunk
}

// check judges the body while a read of it waits, every stallAge: one
// that turns slow (slowAt, the read's time counted; or stalled, below)
// and finds no room in the slow bodies' share has its read cut (the
// connection's deadline), and is refused with errSlowBodies. A body
// whose read has waited stallAge of its client's time with no byte while
// it holds more than its bytes prove is slow: a client that sent an
// eighth of its body at once and stopped would otherwise hold its size
// until its burst no longer counted (two youngAge), and 64 of them the
// whole budget meanwhile, a large request of another client waiting
// behind them for their cut (0.4-1.9 s beside 64 such uploads).
func (br *bodyReader) check() {
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.done {
		return
	}
	next := stallAge
	if br.inRead {
		stalled := time.Since(br.readStart)
		if !br.judgeAt(br.waited+stalled, stalled >= stallAge && br.unproven()) {
			br.cutSlow = true
			_ = br.pace.conn.SetReadDeadline(httploop.AbortRead)
			return
		}
		if stalled < stallAge { // judged again once it has stalled stallAge
			next = stallAge - stalled
		}
	}
	br.judge.Reset(next)
}

// slowAt reports whether the body is slow at t of its client's time: it
// arrived slower than FastRate over the last stretch of at least
// youngAge of it (the first from its first byte awaited: a body that
// sent its first megabytes fast banks no stall for long).
func (br *bodyReader) slowAt(t time.Duration) bool {
	d := t - br.markAt
	if d < youngAge {
		return false
	}
	if (br.read-br.markRead)*int64(time.Second) < FastRate*int64(d) {
		return true
	}
	br.markAt, br.markRead = t, br.read
	return false
}

// judgeAt turns the body slow once it is at t of its client's time
// (slowAt): what it holds counts against the slow bodies' share from
// then on, not against the bodies charged ahead. It reports false when
// the share has no room for it (a body alone in it always has): the
// body is refused then, and counts in it no more.
func (br *bodyReader) judgeAt(t time.Duration, stalled bool) bool {
	if br.slow || !(stalled || br.slowAt(t)) {
		return true
	}
	br.giveAhead()
	if h := br.b.slowHeld.Add(br.held); h > br.b.slowMax && h != br.held {
		br.b.slowHeld.Add(-br.held)
		return false
	}
	br.slow = true
	return true
}

// chargeTo charges the body up to want bytes in all (at most its room),
// within its client's share (with Credentials), and within the slow
// bodies' share once it is slow: errSlowBodies when that has no room for
// it, errOverBudget when the budget's wait ended.
func (br *bodyReader) chargeTo(want int64) error {
	room := br.b.bodyRoom(br.sh)
	if br.most > 0 {
		room = min(room, br.most)
	} else if br.full > 0 {
		room = min(room, br.full)
	}
	want = min(want, room)
	if want <= br.held {
		return nil
	}
	// In steps of budgetChunk at least, not a read's bytes at a time.
	n := min(max(want, br.held+budgetChunk), room) - br.held
	if !br.slowRoom(n) {
		return errSlowBodies
	}
	if br.sh.on && !br.b.takeShare(br.ctx, br.sh.client, n, br.held, nil) {
		br.slowGive(n)
		return errOverBudget
	}
	rest := room - br.held
	if br.sh.on || br.slow {
		// No overflow: a client's share bounds its bodies, and the
		// overflow's charge (a body's whole rest) would pass the slow
		// bodies' share by what slowRoom did not count.
		rest = 0
	}
	got, over, ok := br.b.grow(br.ctx, n, br.held, rest, br.wait)
	if !ok {
		br.slowGive(n)
		if br.sh.on {
			br.b.giveShare(br.sh.client, n)
		}
		return errOverBudget
	}
	br.slowGive(n - got - over) // the overflow's charge is the body's whole rest
	br.held += got + over
	br.over += over
	return nil
}

// slowRoom reports whether n more bytes of a slow body fit the slow
// bodies' share (a body alone in it always does), counting them. A body
// not slow takes no room.
func (br *bodyReader) slowRoom(n int64) bool {
	if !br.slow {
		return true
	}
	h := br.b.slowHeld.Add(n)
	if h <= br.b.slowMax || h == br.held+n {
		return true
	}
	br.b.slowHeld.Add(-n)
	return false
}

// slowGive gives back n bytes of the slow bodies' share that a slow body
// counted and did not get (n < 0: counts more).
func (br *bodyReader) slowGive(n int64) {
	if br.slow && n != 0 {
		br.b.slowHeld.Add(-n)
	}
}

// ended gives back what the body holds of the slow bodies' share and of
// the bodies charged ahead, and moves what it holds of the budget to h,
// once the request is answered.
func (br *bodyReader) ended(h *hold) {
	br.pace.end()
	br.mu.Lock()
	br.done = true
	if br.judge != nil {
		br.judge.Stop()
	}
	br.mu.Unlock()
	br.giveAhead()
	br.slowGive(br.held)
	h.main += br.held - br.over
	h.over += br.over
}

// chargeInflated charges a compressed body, whose compressed bytes have
// all arrived (and are held, charged), twice the n bytes they inflate
// to and a byte: what its window (wire.Body) grows to, and the copies
// its decoded input keeps of its strings (a body over 64 KiB copies each
// string it keeps out of its window: wire's keepText), which live beside
// the window while it is decoded and beside what storage copies of them
// while it is served. (64 bodies inflating 10 MB each charged once held
// about twice the budget live.) It is charged before its window is
// allocated, all at once, so that bodies waiting for their inflated
// bytes hold no part of them meanwhile (64 bodies inflating 10 MB each,
// charged as they inflated, all held part and waited on one another).
//
// Its bytes having all arrived, what it holds meanwhile is its compressed
// bytes alone, and it waits its turn for up to arrivedWait, not
// BudgetWait: an honest compressed body sent at once is not throttled
// while the bodies before it are served.
func (br *bodyReader) chargeInflated(n int64) error {
	br.most, br.wait = br.held+2*n+1, arrivedWait
	return br.chargeTo(br.most)
}

// cutOff is the error of a body its pace cut; err is its read's.
func (br *bodyReader) cutOff(in *Request, err error) error {
	return &bodyCut{read: br.read, size: in.ContentLength, reason: fmt.Sprintf(cutBelowFloor, br.pace.pace.Floor), err: err}
}

// rawBody is a bodyReader read as it is, its pace kept (for drain).
type rawBody bodyReader

func (r *rawBody) Read(p []byte) (int, error) { return (*bodyReader)(r).readRaw(p) }

// drain reads a body away, keeping none of it, so that the client that
// sent it reads the answer on a connection that stays usable: at most
// limit bytes and one more (the body limit, past which the answer closes
// the connection anyway). io.Discard reads into buffers of its own; a
// pool of ours here saved nothing a benchmark shows (only a request
// refused over the budget drains).
func drain(r io.Reader, limit int64) {
	_, _ = io.CopyN(io.Discard, r, limit+1)
}

// errOverBudget: the rest of a body did not fit in the budget in time.
var errOverBudget = errors.New("emulator: request bytes in flight over budget")

// errSlowBodies: a slow body's next bytes did not fit in the slow bodies'
// share. It is throttled and its connection closed, its body unread.
var errSlowBodies = errors.New("emulator: the slow request bodies hold their share of the budget")

// retryLater marks the edge's ThrottlingException (the budget of bytes,
// the limit of requests in flight): its answer says Retry-After.
type retryLater struct{ error }

func (r retryLater) Unwrap() error { return r.error }

// RetryAfterSeconds is the Retry-After of a throttled request.
const RetryAfterSeconds = "1"
