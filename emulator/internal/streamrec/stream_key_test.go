package streamrec

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestStreamRecordKeyCopied: a stream record keeps its own copy of the
// write's key. The key a write gets may be a view of the request's body,
// and a record lives for the stream's retention (a day).
func TestStreamRecordKeyCopied(t *testing.T) {
	body := strings.Repeat("x", 1<<16) + "user#1" + "42"
	inBody := func(v string) bool {
		p, b := uintptr(unsafe.Pointer(unsafe.StringData(v))), uintptr(unsafe.Pointer(unsafe.StringData(body)))
		return p >= b && p < b+uintptr(len(body))
	}
	k := storage.Key{Partition: storage.S(body[1<<16 : 1<<16+6]), Sort: storage.N(storage.Number(body[1<<16+6:]))}
	if !inBody(k.Partition.Str()) || !inBody(k.Sort.Str()) {
		t.Fatal("the test's key is not a view of its body")
	}
	now := time.Unix(1_700_000_000, 0)
	s := New(Table{}, ID{}, ViewKeysOnly, Options{Clock: func() time.Time { return now }})
	s.Observer().Observe(storage.Committed{Key: k, HasNew: true})
	first, _ := s.Bounds(now)
	recs, _, _, err := s.s.log.Read(first, 10, 1<<20, now, func(*streamlog.Record) int { return 1 })
	if err != nil || len(recs) != 1 {
		t.Fatalf("Read: %d records, %v", len(recs), err)
	}
	got := recs[0].Key
	if got.Partition.Str() != "user#1" || got.Sort.Str() != "42" {
		t.Fatalf("record key %v", got)
	}
	if inBody(got.Partition.Str()) || inBody(got.Sort.Str()) {
		t.Fatal("the record's key shares the request body's memory")
	}
}
