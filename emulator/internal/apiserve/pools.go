package apiserve

import (
	"bytes"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// The edge's pools: request and answer bodies, the connection loop's
// answer buffer (the loop's readers and the compressors are httploop's).
// Each is a lease.Pool (under the race detector a buffer given back is
// overwritten with poisonByte, so a reader that kept it reads garbage);
// each pays more than 10% on the operation it serves, measured pool on ->
// off with -count 5, medians, on a shared 2-core machine.

// poisonByte is what a given-back buffer's bytes become in lease's checked
// mode.
const poisonByte = 0xdb

// poisonBytes overwrites all of b's room.
func poisonBytes(b []byte) {
	b = b[:cap(b)]
	for i := range b {
		b[i] = poisonByte
	}
}

// requestBodies hold request bodies while they are decoded; one larger
// than maxPooledBuffer is left to the collector.
//
// BenchmarkOps handler, 2000x: PutItem 816 -> 1280 B/op (+57%), 10 -> 12
// allocs; GetItem 233 -> 361 B/op (+55%), 6 -> 8; UpdateItemCondition
// 1308 -> 1645 (+26%); QueryPartition10 295 -> 584 (+98%); ScanFiltered
// 714 -> 874 (+22%); TransactGet2 1914 -> 2138 (+12%); TransactWrite2
// 9490 -> 10242 (+8%).
var requestBodies = lease.NewPool(lease.Config[*bytes.Buffer]{
	New: func() *bytes.Buffer { return new(bytes.Buffer) },
	Reset: func(b *bytes.Buffer) bool {
		b.Reset()
		return b.Cap() <= maxPooledBuffer
	},
	Poison: func(b *bytes.Buffer) { poisonBytes(b.Bytes()[:0]) },
})

// AnswerBodies hold answers from the service until written (Recycle);
// one larger than maxPooledBuffer is left to the collector.
//
// BenchmarkOps handler, 2000x: GetItem 233 -> 1273 B/op (+446%), 6 -> 14
// allocs; QueryPartition10 295 -> 12858 B/op, 7 -> 20; ScanFiltered
// 714 -> 85509 B/op, 15 -> 34; TransactGet2 1914 -> 3843 B/op (+101%);
// PutItem 816 -> 848 B/op, 10 -> 12 allocs (+20%); UpdateItemCondition
// 1308 -> 1342 B/op, 16 -> 18 allocs (+12%).
var AnswerBodies = lease.NewPool(lease.Config[*[]byte]{
	New: func() *[]byte { return new([]byte) },
	Reset: func(b *[]byte) bool {
		*b = (*b)[:0]
		return cap(*b) <= maxPooledBuffer
	},
	Poison: func(b *[]byte) { poisonBytes(*b) },
})

// AnswerBufs are the connection loop's answer buffers, one a connection;
// one grown past twice httploop.WriteBufferSize is left to the collector.
//
// BenchmarkLoopConnection, 1000x: 10692 -> 14822 B/op (+39%), 74 -> 76
// allocs.
var AnswerBufs = lease.NewPool(lease.Config[*[]byte]{
	New: func() *[]byte {
		b := make([]byte, 0, httploop.WriteBufferSize)
		return &b
	},
	Reset: func(b *[]byte) bool {
		*b = (*b)[:0]
		return cap(*b) <= 2*httploop.WriteBufferSize
	},
	Poison: func(b *[]byte) { poisonBytes(*b) },
})
