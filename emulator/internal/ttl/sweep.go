package service

import (
	"errors"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Time to Live: a table's setting (ttlSpec, part of its definition:
// the sweeper reads it, backups describe it, global tables copy it) and
// the sweeper that deletes expired items. UpdateTimeToLive and
// DescribeTimeToLive are a feature (they read and change the setting
// with Definition.TTL and, in a Table.Change, Edit.SetTTL: feature_define.go).
//
// An item is expired when its TTL attribute is a Number of epoch seconds
// earlier than the emulator's clock (the facade's clock.go), and not
// more than five years earlier: AWS skips such items, and items whose TTL attribute is
// missing or not a Number. The sweeper deletes each expired item through
// the one write path, with a condition checked inside the write (still
// expired at that moment), so a concurrent update that moves the TTL
// saves the item, and indexes and streams see the deletion: its stream
// record carries userIdentity {Type: Service, PrincipalId:
// dynamodb.amazonaws.com}, as AWS's do.
//
// AWS deletes expired items within a few days; the emulator deletes them
// at the next sweep: every Options-independent interval the embedding
// program chooses (RunTTLSweeper; cmd/dynamoemu's -ttlSweepInterval), or
// at once with SweepTTL or POST /dynamoemu/ttl/sweep. DynamoDB Local never
// deletes expired items.

// ttlSpec is a table's TimeToLive setting.
type ttlSpec struct {
	enabled bool
	attr    string // the TTL attribute while enabled
}

// maxTTLAge is how far in the past a TTL value may be and still expire
// its item (AWS: five years).
const maxTTLAgeYears = 5

// ttlExpired reports whether v, an item's TTL attribute, makes the item
// expired at now: a Number of epoch seconds before now and no more than
// five years before it.
func ttlExpired(v storage.Value, ok bool, now time.Time) bool {
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

// SweepTTL deletes, now, every expired item of every table with TTL
// enabled, in every namespace, and returns how many it deleted
// (Emulator.SweepTTL).
func (s *Service) SweepTTL() int {
	now := s.clock()
	n := 0
	for _, ns := range s.dbs.all() {
		for _, t := range ns.allTables() {
			n += t.sweepTTL(now)
		}
	}
	return n
}

// sweepTTL deletes t's expired items at now. It finds them with one scan
// (reading only the TTL attribute), then deletes each in its own write
// that checks it is still expired.
func (t *table) sweepTTL(now time.Time) int {
	spec := t.snapshot().ttl
	if !spec.enabled {
		return 0
	}
	names := []string{spec.attr}
	var expired []storage.Key
	t.data.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		v, ok := e.Attributes(names)[spec.attr]
		if ttlExpired(v, ok, now) {
			expired = append(expired, e.Key())
		}
		return true
	})
	n := 0
	for _, k := range expired {
		// ErrNoWrite (no longer expired) is no error; a delete the commit
		// hook refused (ErrHookFailed) was undone and is not counted, one
		// whose durability failed (ErrNotDurable) was made.
		deleted := false
		_, err := t.data.WriteFrom(storage.OriginService, k, func(cur storage.Item) (storage.Item, error) {
			v, ok := cur[spec.attr]
			if cur == nil || !ttlExpired(v, ok, now) {
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
