package transfers

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"slices"
	"sync"
	"time"
)

// transferSet is a namespace's exports, imports and bulk operations
// (exports.go, imports.go, bulk_ops.go), oldest first. With persistence
// each is also saved in the namespace's DB and comes back after a
// restart (transfers_persist.go).
type transferSet struct {
	mu      sync.Mutex // guards the slices; a leaf of the lock order
	exports []*exportJob
	imports []*importJob
	bulks   []*bulkJob
}

// transferID returns an export or import id as AWS forms them: the
// epoch milliseconds in 14 digits, "-", 8 hex digits
// ("01693509390000-a1b2c3d4").
func transferID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%014d-%s", now.UnixMilli(), hex.EncodeToString(b[:]))
}

// page returns the items of list after the one whose key is token
// ("" : from the start), at most max of them, and the token of the next
// page ("" : none).
func page[T any](list []T, key func(T) string, token string, max int) ([]T, string, bool) {
	start := 0
	if token != "" {
		i := slices.IndexFunc(list, func(x T) bool { return key(x) == token })
		if i < 0 {
			return nil, "", false
		}
		start = i + 1
	}
	end := min(start+max, len(list))
	next := ""
	if end < len(list) {
		next = key(list[end-1])
	}
	return list[start:end], next, true
}

// hasTable reports whether the request's namespace has a table name.
func hasTable(c service.Call, name string) bool {
	_, ok := c.Table(name)
	return ok
}
