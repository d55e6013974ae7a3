package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ClientRequestTokens of TransactWriteItems and ExecuteTransaction's
// writes: package idempotency keeps them (a bounded store keyed by
// namespace and token, a request's fingerprint, the janitor, the tokens
// saved as DB metadata with -dbPath); here is what a replay answers.

// tokenStore is the service's ClientRequestTokens, of every namespace.
type tokenStore struct {
	*idempotency.Store[*Namespace, *txReplay]
}

// fingerprint is a decoded request's fingerprint (idempotency.Fingerprint).
var fingerprint = idempotency.Fingerprint

// do runs a transaction under token with run, or answers it from the
// token's earlier use. fp is the request's fingerprint (a request of
// another operation never matches), mode its ReturnConsumedCapacity, now
// its time.
func (s tokenStore) do(ns *Namespace, now time.Time, token string, fp [32]byte, mode string, run func() (*TransactWriteItemsOutput, error)) (*TransactWriteItemsOutput, error) {
	var out *TransactWriteItemsOutput
	kept, replayed, err := s.Do(ns, ns.tokensKept(), now, token, fp, func() (*txReplay, error) {
		var err error
		if out, err = run(); err != nil {
			return nil, err
		}
		return replayOf(out), nil
	})
	if err != nil || !replayed {
		return out, err
	}
	return kept.replay(mode), nil
}

// tokensKept is where ns's completed tokens are saved: its DB, when the
// DB is kept on disk.
func (ns *Namespace) tokensKept() idempotency.Meta {
	if !ns.persisted() {
		return nil
	}
	return ns.registered().db
}

// txReplay is what a replay of a transaction answers
// (idempotency.Answer): its item collection metrics and the read
// capacity of the items written, per table name. Nothing refers to a
// table or to the request. A saved token holds it as JSON.
type txReplay struct {
	Reads []replayUnits                       `json:"reads,omitempty"`
	ICM   map[string][]*ItemCollectionMetrics `json:"icm,omitempty"`
}

// replayUnits is one table's units in a txReplay.
type replayUnits struct {
	Table string  `json:"t"`
	Units float64 `json:"u"`
}

// replayOf is what a replay of o's request answers.
func replayOf(o *TransactWriteItemsOutput) *txReplay {
	r := &txReplay{ICM: o.ItemCollectionMetrics}
	for _, u := range o.replayReads {
		r.Reads = append(r.Reads, replayUnits{u.table, u.units})
	}
	return r
}

// replay is the answer of a replay whose ReturnConsumedCapacity is mode.
func (r *txReplay) replay(mode string) *TransactWriteItemsOutput {
	o := &TransactWriteItemsOutput{ItemCollectionMetrics: r.ICM}
	for _, u := range r.Reads {
		o.replayReads = append(o.replayReads, txUnits{u.Table, u.Units})
	}
	return o.replay(mode)
}

// Bytes estimates the memory of r.
func (r *txReplay) Bytes() int64 {
	n := int64(64 + 40*len(r.Reads))
	for _, u := range r.Reads {
		n += int64(len(u.Table))
	}
	for name, list := range r.ICM {
		n += int64(64 + len(name) + 24*len(list))
		for _, m := range list {
			n += int64(64 + 8*len(m.SizeEstimateRangeGB))
			for attr, v := range m.ItemCollectionKey {
				n += int64(64 + len(attr) + storage.ValueSize(v))
			}
		}
	}
	return n
}
