package oversize

import (
	"bytes"
	"strings"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// Every, set by a test, reads every body first, small ones too.
var Every atomic.Bool

// minObjects is the fewest objects a body read first holds.
const minObjects = 1024

// Few reports whether body holds at most n JSON objects, or at most
// minObjects (counted by their opening braces, a bound from above: a
// brace in a string counts too). Then the body goes to the decoder as
// it is: no list of objects in it is over a limit of n, or decoding it
// whole costs at most that many elements, which is no more than a small
// multiple of its bytes. Counting one byte is a vectorised pass;
// scanning the body's structure made every transaction dearer
// (BenchmarkOps/TransactWrite2/handler), and a batch of 25 writes one
// more pass.
func Few(body []byte, n int) bool {
	if Every.Load() {
		return false
	}
	return bytes.Count(body, []byte{'{'}) <= max(n, minObjects)
}

// topMember returns the value of the body's member name when the body is
// an object with exactly one member of that name and none whose name
// differs from it only in case.
func topMember(body []byte, name string) (wire.Span, bool) {
	members, _, ok := wire.ObjectMembers(body, 0)
	if !ok {
		return wire.Span{}, false
	}
	return onlyMember(members, name)
}

// onlyMember is topMember for members already read.
func onlyMember(members []wire.Member, name string) (wire.Span, bool) {
	var v wire.Span
	found := 0
	for _, m := range members {
		if strings.EqualFold(m.Name, name) {
			if m.Name != name {
				return wire.Span{}, false
			}
			v = m.Value
			found++
		}
	}
	return v, found == 1
}

// DecodeAlone decodes elements e of body (one, or a run of them) into
// in, wrapped as the only elements of their list: pre and post are the
// request around them. It reports whether that decodes (a value fault
// is no error: it is reported after the constraints, which an oversized
// list fails).
func DecodeAlone(body []byte, e wire.Span, pre, post string, in any) bool {
	_, err := decodeAlone(body, e, pre, post, in)
	return err == nil
}

// DecodeClean is DecodeAlone for an operation that reports a value
// fault before its list's count (one not among the service's deferred
// value operations): it reports whether the elements decode with no
// value fault either.
func DecodeClean(body []byte, e wire.Span, pre, post string, in any) bool {
	deferred, err := decodeAlone(body, e, pre, post, in)
	return err == nil && deferred == nil
}

// DecodeRun is DecodeAlone that also reports whether the elements have
// no value fault (clean). body is a reading's own (a cutter's, for
// MapCut and KeysCut): a run past twice maxRunBytes (a run of one
// large element) is decoded where it is (decodeInPlace), not copied.
func DecodeRun(body []byte, e wire.Span, pre, post string, in any) (ok, clean bool) {
	var deferred *wire.Deferred
	var err error
	if e.End-e.Start > 2*maxRunBytes && e.Start >= len(pre) && e.End+len(post) <= cap(body) && len(pre) <= maxWrap && len(post) <= maxWrap {
		deferred, err = decodeInPlace(body, e, pre, post, in)
	} else {
		deferred, err = decodeAlone(body, e, pre, post, in)
	}
	return err == nil, err == nil && deferred == nil
}

// maxWrap is the longest pre or post decodeInPlace writes around a run.
const maxWrap = 48

// decodeInPlace is decodeAlone without the copy: pre and post are
// written over the bytes just before and after the run (those after it
// may be past len(body), within its capacity: bytes not yet read), which
// are put back once it is decoded; the decoder writes nothing into its
// input and what it returns holds no view of it (runBodies). A
// BatchWriteItem of one 4 MB item held a copy of it, in a buffer of its
// own, beside the body.
func decodeInPlace(body []byte, e wire.Span, pre, post string, in any) (*wire.Deferred, error) {
	from, to := e.Start-len(pre), e.End+len(post)
	b := body[:to]
	var before, after [maxWrap]byte
	copy(before[:], b[from:e.Start])
	copy(after[:], b[e.End:to])
	copy(b[from:], pre)
	copy(b[e.End:], post)
	defer func() {
		copy(b[from:e.Start], before[:])
		copy(b[e.End:to], after[:])
	}()
	return wire.DecodeRequestDeferred(b[from:to], in)
}

func decodeAlone(body []byte, e wire.Span, pre, post string, in any) (*wire.Deferred, error) {
	mini := runBodies.Get()
	defer runBodies.Put(mini)
	*mini = append(*mini, pre...)
	*mini = append(*mini, body[e.Start:e.End]...)
	*mini = append(*mini, post...)
	return wire.DecodeRequestDeferred(*mini, in)
}

// runBodies are the bodies decodeAlone builds runs into, reused: what the
// decoder returns holds no view of its input (its strings and numbers are
// copies), so a run's body is free once decoded. A run is about
// maxRunBytes; a body past twice that (a run of one large element) is
// left to the collector. BenchmarkOversizeMemory -benchtime 3x,
// alloc/body, pool on -> off: BatchGetItem 3.32 -> 4.43, BatchWriteItem
// 4.85 -> 6.09, TransactWriteItems 3.91 -> 5.13, TransactGetItems 6.16
// -> 7.23, BatchExecuteStatement 14.3 -> 15.6, ExecuteTransaction 3.28
// -> 4.50.
var runBodies = lease.NewPool(lease.Config[*[]byte]{
	New: func() *[]byte { return new([]byte) },
	Reset: func(b *[]byte) bool {
		*b = (*b)[:0]
		return cap(*b) <= 2*maxRunBytes
	},
	Poison: func(b *[]byte) {
		for i := range *b {
			(*b)[i] = 0xff // not JSON: a view kept reads garbage
		}
	},
})

// maxRunBytes bounds a run's bytes: a run of 1024 write requests or
// statements of 370 bytes was 380 KB of body, a few MB decoded, live
// beside the body whenever the collector marked.
const maxRunBytes = 32 << 10

// chunker gathers the elements of a list, from its element from on, in
// runs of at most size elements and about maxRunBytes (a run's span
// covers its elements and the commas between them) and calls fn with
// each run and its length, until fn returns false. Decoding a run at a
// time costs one decode per run and at most a run's elements in memory.
type chunker struct {
	from, size int
	fn         func(run wire.Span, n int) bool
	run        wire.Span
	n          int
	failed     bool
}

// add takes element i at s; it reports whether to go on.
func (k *chunker) add(i int, s wire.Span) bool {
	if i < k.from {
		return true
	}
	if k.n == 0 {
		k.run.Start = s.Start
	}
	k.run.End = s.End
	k.n++
	if k.n == k.size || k.run.End-k.run.Start >= maxRunBytes {
		return k.flush()
	}
	return true
}

// flush hands the run gathered to fn; it reports whether every run was
// accepted.
func (k *chunker) flush() bool {
	if k.n == 0 || k.failed {
		return !k.failed
	}
	ok := k.fn(k.run, k.n)
	k.n = 0
	k.failed = !ok
	return ok
}

// MaxEchoBytes is the most of a map's echo a MapCut keeps (and a few
// bytes more): the service's answer cuts the echo at apierr.MaxEcho
// bytes, the same number, so a request of hundreds of thousands of write
// requests holds no echo of each.
const MaxEchoBytes = 64 << 10

// TransactStatements reduces an ExecuteTransaction of more than limit
// statements to its first limit+1, once clean has accepted the others
// (in runs of at most 1024 statements and about maxRunBytes). Its answer
// is the count's, refused before anything its statements say but a
// fault the decoder reports (a syntax or serialization error, a value
// fault: clean's to find), so limit+1 statements get it as every one
// does, with no count to pass on. It returns the body to decode instead
// (nil: the body as it is).
func TransactStatements(body []byte, limit int, clean func(run wire.Span) bool) []byte {
	reduced, _ := firstOf(body, "TransactStatements", limit+1, 1024, clean)
	return reduced
}

// firstOf reduces body's top-level list member to its first keep
// elements, once check has accepted the others in runs of at most size
// elements, and returns the list's length n (reduced nil: the body as it
// is, and n not counted to its end).
func firstOf(body []byte, member string, keep, size int, check func(run wire.Span) bool) (reduced []byte, n int) {
	if Few(body, keep) {
		return nil, 0
	}
	list, ok := topMember(body, member)
	if !ok {
		return nil, 0
	}
	keepEnd := 0
	k := chunker{from: keep, size: size, fn: func(run wire.Span, _ int) bool { return check(run) }}
	if !wire.ArrayElements(body, list.Start, func(i int, s wire.Span) bool {
		n++
		if i < keep {
			keepEnd = s.End
		}
		return k.add(i, s)
	}) || !k.flush() || n <= keep {
		return nil, 0
	}
	out := make([]byte, 0, keepEnd+1+len(body)-list.End)
	out = append(out, body[:keepEnd]...)
	out = append(out, ']')
	return append(out, body[list.End:]...), n
}

// Statement kinds, as Statements' kinds function reports them.
const (
	KindNone  = iota // a statement that neither reads nor writes (it fails alone)
	KindRead         // a SELECT
	KindWrite        // an INSERT, UPDATE or DELETE
)

// Statements reduces a BatchExecuteStatement of more than limit
// statements, whose answer depends only on the kinds of statements it
// holds (both kinds: refused as mixed; else too many reads or writes)
// once no statement has a fault of its own, to its first limit+1
// statements and, after them, the first later statement of each kind
// they do not hold. kinds decodes a run of statements alone and returns
// each one's kind, whether any has a fault of its own (a constraint the
// answer would list), and ok false when the run does not decode (then
// nothing is reduced). A fault among the first limit+1 is kept by the
// reduced body; one after them reduces nothing. It returns the body to
// decode instead (nil: the body as it is).
func Statements(body []byte, limit int, kinds func(run wire.Span) (k []int, faults, ok bool)) []byte {
	if Few(body, limit) {
		return nil
	}
	list, ok := topMember(body, "Statements")
	if !ok {
		return nil
	}
	var (
		n, keepEnd int
		have       [3]bool // kinds among the first limit+1
		picked     []wire.Span
		pickedKind [3]bool
		run        []wire.Span // the elements of the run being gathered
		failed     bool
	)
	flush := func(head bool) bool {
		if len(run) == 0 {
			return true
		}
		k, faults, ok := kinds(wire.Span{Start: run[0].Start, End: run[len(run)-1].End})
		if !ok || faults && !head || len(k) != len(run) {
			failed = true
			return false
		}
		for i, kind := range k {
			switch {
			case kind == KindNone:
			case head:
				have[kind] = true
			case !have[kind] && !pickedKind[kind]:
				pickedKind[kind] = true
				picked = append(picked, run[i])
			}
		}
		run = run[:0]
		return true
	}
	if !wire.ArrayElements(body, list.Start, func(i int, s wire.Span) bool {
		n++
		run = append(run, s)
		switch {
		case i == limit:
			keepEnd = s.End
			return flush(true)
		case i > limit && (len(run) == 1024 || s.End-run[0].Start >= maxRunBytes):
			return flush(false)
		}
		return true
	}) || failed || n <= limit+1 || !flush(false) {
		return nil
	}
	out := make([]byte, 0, keepEnd+len(body)-list.End+1)
	out = append(out, body[:keepEnd]...)
	for _, s := range picked {
		out = append(out, ',')
		out = append(out, body[s.Start:s.End]...)
	}
	out = append(out, ']')
	return append(out, body[list.End:]...)
}
