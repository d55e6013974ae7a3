package ttl

import (
	"errors"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The sweeper that deletes expired items, by a table's TimeToLive
// setting (part of its definition, which the core keeps:
// service.Definition.Settings).
//
// An item is expired when its TTL attribute is a Number of epoch seconds
// earlier than the emulator's clock (the facade's clock.go), and not
// more than five years earlier: AWS skips such items, and items whose TTL attribute is
// missing or not a Number. The sweeper deletes each expired item through
// the one write path (the table's storage), with a condition checked
// inside the write (still expired at that moment), so a concurrent update
// that moves the TTL saves the item, and indexes and streams see the
// deletion: its stream record carries userIdentity {Type: Service,
// PrincipalId: dynamodb.amazonaws.com}, as AWS's do (storage.OriginService).
//
// AWS deletes expired items within a few days; the emulator deletes them
// at the next sweep: every Options-independent interval the embedding
// program chooses (RunTTLSweeper; cmd/dynamoemu's -ttlSweepInterval), or
// at once with SweepTTL or POST /dynamoemu/ttl/sweep. DynamoDB Local never
// deletes expired items.

// maxTTLAgeYears is how far in the past a TTL value may be and still
// expire its item (AWS: five years).
const maxTTLAgeYears = 5

// expired reports whether v, an item's TTL attribute, makes the item
// expired at now: a Number of epoch seconds before now and no more than
// five years before it.
func expired(v storage.Value, ok bool, now time.Time) bool {
	if !ok || v.Kind() != storage.KindN {
		return false
	}
	at, err := strconv.ParseFloat(v.Str(), 64)
	if err != nil {
		return false
	}
	nowSec := float64(now.UnixNano()) / 1e9
	oldest := float64(now.AddDate(-maxTTLAgeYears, 0, 0).Unix())
	return at < nowSec && at >= oldest
}

// Sweep deletes, now (the service's clock), every expired item of every
// table with TTL enabled, in every namespace of s, and returns how many
// it deleted (Clock.SweepTTL).
func Sweep(s *service.Service) int {
	now := s.Now()
	n := 0
	for _, sp := range s.Spaces() {
		for _, name := range sp.TableNames() {
			if t, ok := sp.Table(name); ok {
				n += sweep(t, now)
			}
		}
	}
	return n
}

// sweep deletes t's expired items at now. It finds them with one scan
// (reading only the TTL attribute), then deletes each in its own write
// that checks it is still expired.
func sweep(t service.Table, now time.Time) int {
	spec := t.Definition().Settings().TTL
	if !spec.Enabled {
		return 0
	}
	data := t.Storage()
	names := []string{spec.Attr}
	var keys []storage.Key
	data.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		v, ok := e.Attributes(names)[spec.Attr]
		if expired(v, ok, now) {
			keys = append(keys, e.Key())
		}
		return true
	})
	n := 0
	for _, k := range keys {
		// ErrNoWrite (no longer expired) is no error; a delete the commit
		// hook refused (ErrHookFailed) was undone and is not counted, one
		// whose durability failed (ErrNotDurable) was made.
		deleted := false
		_, err := data.WriteFrom(storage.OriginService, k, func(cur storage.Item) (storage.Item, error) {
			v, ok := cur[spec.Attr]
			if cur == nil || !expired(v, ok, now) {
				return nil, storage.ErrNoWrite
			}
			deleted = true
			return nil, nil
		})
		if deleted && (err == nil || errors.Is(err, storage.ErrNotDurable)) {
			n++
		}
	}
	return n
}
