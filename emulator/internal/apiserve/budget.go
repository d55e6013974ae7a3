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
)

// The budget of request bytes in flight (the emulator's
// Options.MaxRequestBytesInFlight): what the bodies of the requests being
// read or served hold, counted together, so that the heap holds at most
// the budget of bodies, and the small requests' share beside it. A body
// is charged by what its sender has proven, not by what it announces:
//
//   - A small body (at most SmallBody bytes announced) is charged whole
//     before it is read: from the budget when it has room and no request
//     waits for it, else from the small requests' share (a sixteenth of
//     the budget, at least SmallBody), where it waits only behind other
//     small ones. A large body waiting never refuses a small request.
//   - A larger body is charged firstCharge bytes (or its size) before it
//     is read, and the rest of its announced size (at most its client's
//     share: a larger one is served past it rather than never) once its first
//     proofBytes have arrived. Its reader hands it no more than those
//     until then, so the buffers it grows stay within the first charge
//     (wire.Body's window: at most twice the bytes arrived and a read
//     chunk). A client that announces 16 MB and sends
//     a byte holds firstCharge; one that sends the proof and stops is cut
//     by the floor rate (pace.go) and its bytes come back.
//   - A body of unknown length (chunked) is charged firstCharge, then
//     its bytes as they arrive, budgetChunk or as many as it holds at a
//     time, up to its client's share; a compressed one its decompressed
//     size once decompressed, likewise.
//
// A charge that does not fit waits its turn, first come first served, for
// at most BudgetWait; then the body is read away, kept nowhere, and the
// request answered with AWS's ThrottlingException (and Retry-After),
// which the SDKs retry with back-off. While a charge waits its body stays
// in the kernel's socket buffers: TCP's flow control holds the client
// back, and the body's pace is not counted. A body holds what it was
// charged until its request is answered. A body waiting for the rest of
// its charge holds its first charge meanwhile: only with more than (budget
// - 16 MB) / firstCharge large bodies proving themselves at once can they
// hold the budget between them, and then their waits end by BudgetWait.
//
// The FIFO is golang.org/x/sync/semaphore's Weighted: a waiter that does
// not fit holds back those behind it (a large body is not starved by
// small ones), and one whose wait ends lets those behind it in.
//
// Fair between clients: the large bodies of one client (its access
// key) hold at most its share of the budget between them
// (ShareOfBudget), and a connection, which sends one body at a time,
// at most that share too. A charge over its client's share waits
// outside the FIFO, for one of that client's own bodies to end, so
// that it holds back nobody else's. Its bodies never wait on one
// another: when every byte a client holds is held by bodies waiting
// for more (each with its first charge, none with room for its rest),
// one of them is let in over the share, so that a client holds at most
// twice its share. Before, 32 bodies of 16 MB from one client under a
// budget of 64 MiB each took a first charge and then all waited
// BudgetWait and were throttled, again and again as the SDK retried.
// Meanwhile, 16 or 64 connections of one client that each announce 16
// MiB and trickle just above the floor hold a quarter of the budget,
// and a large request from another client is admitted at once. Without
// a share, 16 of them held the whole budget of 256 MiB and every other
// request over 64 KiB waited BudgetWait and was throttled. (Clients
// that each use an access key of their own are as many clients: the
// share bounds what one client holds, not how many there are.)

// BudgetWait is the longest a request waits for room in the budget before
// it is throttled: well inside the server's read timeout
// (DefaultReadTimeout), which bounds reading its body after the wait.
const BudgetWait = 10 * time.Second

// SmallBody is the largest body of a small request, which the small
// requests' share serves: every control-plane call (a CreateTable with
// twenty indexes is a few KB), every read of a key (a GetItem's key is at
// most 3 KB) and the writes of items of common sizes. 64 KiB is also what
// a body proves itself with (proofBytes).
const SmallBody = 64 << 10

// proofBytes are a larger body's first bytes, which arrive before the
// rest of its announced size is charged.
const proofBytes = 64 << 10

// firstCharge is what a larger body is charged before its first byte:
// what its reader's buffers grow to while its first proofBytes arrive
// (twice the bytes arrived, and a read chunk of 32 KB: wire.Body), with
// room to spare.
const firstCharge = 4 * proofBytes

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

// budgetChunk is the least a body of unknown length is charged at a time
// once its first charge is used.
const budgetChunk = 256 << 10

// Budget admits request bodies by their bytes, in order of arrival. Init
// sets it before the first request; tests set Wait and SetPace then.
type Budget struct {
	Max  int64        // 0: no budget
	Wait atomic.Int64 // the longest wait in nanoseconds: BudgetWait; tests shorten it

	main  *semaphore.Weighted // Max bytes
	small *semaphore.Weighted // the small requests' share
	pace  atomic.Pointer[Pace]

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
		b.shares = map[string]clientShare{}
		b.freed = make(chan struct{})
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
		if !b.acquire(ctx, b.small, n) {
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
	got, ok := b.moreOfMain(ctx, n)
	if !ok && sh.on {
		b.giveShare(sh.client, n)
	}
	return got, ok
}

// moreOfMain charges n bytes (at most the budget) of the budget alone,
// waiting its turn in the FIFO.
func (b *Budget) moreOfMain(ctx context.Context, n int64) (int64, bool) {
	if !b.acquire(ctx, b.main, n) {
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

// acquire takes n of sem, waiting its turn at most b.Wait.
func (b *Budget) acquire(ctx context.Context, sem *semaphore.Weighted, n int64) bool {
	if sem.TryAcquire(n) {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(b.Wait.Load()))
	defer cancel()
	if sem.Acquire(ctx, n) != nil {
		b.Throttled.Add(1)
		return false
	}
	return true
}

// took counts n bytes of main taken.
func (b *Budget) took(n int64) {
	u := b.used.Add(n)
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
		b.main.Release(h.main)
	}
	if h.small > 0 {
		b.smallUsed.Add(-h.small)
		b.small.Release(h.small)
	}
}

// bodyReader reads a body that is still arriving, with the budget on: it
// keeps the body's pace (pace.go) and charges the rest of the body as it
// proves itself (the rules above). handle releases what it holds once
// the request is answered.
type bodyReader struct {
	r    io.Reader
	b    *Budget
	ctx  context.Context
	full int64 // the body's whole charge once proven (<= held: charged already); -1: unknown, charged as it arrives
	held int64 // bytes of the budget charged for it
	read int64 // bytes arrived
	pace pacer
	sh   share // the client whose share its charges count against
}

func (br *bodyReader) Read(p []byte) (int, error) {
	if br.held < br.full {
		if br.read >= proofBytes {
			if !br.charge(br.full - br.held) {
				return 0, errOverBudget
			}
		} else if int64(len(p)) > proofBytes-br.read {
			p = p[:proofBytes-br.read]
		}
	}
	n, err := br.readRaw(p)
	if br.full < 0 && br.read > br.held { // charge stops at bodyRoom
		if !br.charge(max(br.read, budgetChunk)) {
			return n, errOverBudget
		}
	}
	return n, err
}

// Admitted is how many of the body's bytes it has been charged: its
// window (wire.Body) grows to the body's size once that covers it.
func (br *bodyReader) Admitted() int64 { return br.held }

// readRaw reads the body as it is, counting its bytes for the pace.
func (br *bodyReader) readRaw(p []byte) (int, error) {
	n, err := br.r.Read(p)
	br.read += int64(n)
	br.pace.arrived(br.read)
	return n, err
}

// charge charges n more bytes: first of its client's share, its clock
// running (the wait is its client's), then of the budget, its clock
// stopped while it waits (that wait is the server's).
func (br *bodyReader) charge(n int64) bool {
	n = min(max(n, 0), br.b.bodyRoom(br.sh)-br.held)
	if n <= 0 {
		return true
	}
	if br.sh.on && !br.b.takeShare(br.ctx, br.sh.client, n, br.held, &br.pace) {
		return false
	}
	br.pace.pause()
	got, ok := br.b.moreOfMain(br.ctx, n)
	br.pace.resume()
	if !ok && br.sh.on {
		br.b.giveShare(br.sh.client, n)
	}
	br.held += got
	return ok
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

// retryLater marks the edge's ThrottlingException (the budget of bytes,
// the limit of requests in flight): its answer says Retry-After.
type retryLater struct{ error }

func (r retryLater) Unwrap() error { return r.error }

// RetryAfterSeconds is the Retry-After of a throttled request.
const RetryAfterSeconds = "1"
