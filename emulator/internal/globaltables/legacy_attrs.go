package globaltables

import (
	"maps"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The aws:rep:* attributes of global tables version 2017.11.29. AWS's
// developer guide (global tables, version 2017.11.29, "How it works")
// says global tables create aws:rep:deleting, aws:rep:updatetime and
// aws:rep:updateregion on every item to keep the replicas in step, and
// its upgrade guide says DynamoDB "performed a write operation to insert
// three attributes into the item record", so a 2017.11.29 table's stream
// has two records per write ("DynamoDB Streams publishes only one record
// (instead of two) for each write" is what the upgrade to 2019.11.21
// changes). Public records of AWS's items show their shape: deleting
// {"BOOL": false}, updateregion {"S": "<region>"} and updatetime {"N":
// "<seconds>.<microseconds>"} (for example "1602518560.314001").
//
// So here, for a 2017.11.29 table:
//   - a local write that leaves an item is followed by a write of the
//     service's own (opStamp, due at once: the next request sees it) that
//     adds the three attributes with the write's region and commit time,
//     unless a later write of the key came first;
//   - a replicated put carries them (the source region and its commit
//     time), in one write, so a replica's stream has one record for it;
//   - a replicated delete first sets aws:rep:deleting to true on the
//     item, then deletes it (two writes in each replica, as AWS bills it:
//     "each target region needs 2 rWRU" for a DeleteItem).
//
// Version 2019.11.21 adds none of them.

// Names of the attributes.
const (
	repDeleting     = "aws:rep:deleting"
	repUpdateRegion = "aws:rep:updateregion"
	repUpdateTime   = "aws:rep:updatetime"
)

// withRepAttrs returns a copy of item with the aws:rep:* attributes of
// stamp s.
func withRepAttrs(item storage.Item, s replStamp, deleting bool) storage.Item {
	out := maps.Clone(item)
	out[repDeleting] = storage.Bool(deleting)
	out[repUpdateRegion] = storage.S(s.region)
	out[repUpdateTime] = storage.N(storage.Number(repTime(s)))
	return out
}

// repTime is s's commit time as aws:rep:updatetime writes it: seconds
// since the epoch with microseconds, as a canonical number (no trailing
// zeros after the point).
func repTime(s replStamp) string {
	us := s.at.UnixMicro()
	sec, frac := us/1e6, us%1e6
	out := strconv.FormatInt(sec, 10)
	if frac != 0 {
		f := strings.TrimRight(strconv.FormatInt(1e6+frac, 10)[1:], "0")
		out += "." + f
	}
	return out
}

// applyStamp adds the aws:rep:* attributes of a local write to its item
// (opStamp), unless a later write of the key came first. drainMu is held.
func (r *replicator) applyStamp(op replOp) {
	t, data := r.target(op.to)
	if data == nil {
		return
	}
	id := t.Info().ID
	_, _ = data.WriteFrom(storage.OriginReplica, op.key, func(cur storage.Item) (storage.Item, error) {
		r.mu.Lock()
		last, seen := r.stamps[id][op.key]
		r.mu.Unlock()
		if cur == nil || seen && last != op.stamp {
			return nil, storage.ErrNoWrite
		}
		return withRepAttrs(cur, op.stamp, false), nil
	})
}

// markRepDeleting sets aws:rep:deleting on the item op deletes, if op wins
// there (a replicated delete of a 2017.11.29 table), whose storage table
// is data. drainMu is held.
func (r *replicator) markRepDeleting(t service.Table, data *storage.Table, op replOp) {
	id := t.Info().ID
	_, _ = data.WriteFrom(storage.OriginReplica, op.key, func(cur storage.Item) (storage.Item, error) {
		r.mu.Lock()
		last, seen := r.stamps[id][op.key]
		r.mu.Unlock()
		if cur == nil || seen && !op.stamp.newer(last) {
			return nil, storage.ErrNoWrite
		}
		return withRepAttrs(cur, op.stamp, true), nil
	})
}
