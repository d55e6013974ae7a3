package service

import (
	"encoding/json"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ClientRequestTokens of TransactWriteItems and ExecuteTransaction's
// writes: package idempotency keeps them (a bounded store keyed by
// namespace and token, a request's fingerprint, the janitor, the tokens
// saved as DB metadata with -dbPath); here is what a replay answers.

// tokenStore is the service's ClientRequestTokens, of every namespace.
type tokenStore struct {
	*idempotency.Store[*Namespace, txReplay]
}

// do runs a transaction under token with run, or answers it from the
// token's earlier use. fp is the request's fingerprint (a request of
// another operation never matches), mode its ReturnConsumedCapacity, now
// its time.
func (s tokenStore) do(ns *Namespace, now time.Time, token string, fp [32]byte, mode string, run func() (*TransactWriteItemsOutput, error)) (*TransactWriteItemsOutput, error) {
	var out *TransactWriteItemsOutput
	kept, replayed, err := s.Do(ns, ns.tokensKept(), now, token, fp, func() (txReplay, error) {
		var err error
		if out, err = run(); err != nil {
			return txReplay{}, err
		}
		return replayOf(out), nil
	})
	if err != nil || !replayed {
		return out, err
	}
	return kept.o.replay(mode), nil
}

// tokensKept is where ns's completed tokens are saved: its DB, when the
// DB is kept on disk.
func (ns *Namespace) tokensKept() idempotency.Meta {
	if !ns.persisted() {
		return nil
	}
	return ns.own().DB
}

// txReplay is what a replay of a transaction answers
// (idempotency.Answer): an output with only its item collection metrics
// and the read capacity of the items written, per table name. Nothing
// refers to a table or to the request. A saved token holds it as JSON
// (savedReplay).
type txReplay struct {
	o *TransactWriteItemsOutput
}

// replayOf is what a replay of o's request answers (one allocation per
// transaction with a token, as before the store was a package).
func replayOf(o *TransactWriteItemsOutput) txReplay {
	return txReplay{&TransactWriteItemsOutput{ItemCollectionMetrics: o.ItemCollectionMetrics, replayReads: o.replayReads}}
}

// savedReplay is a txReplay as a saved token holds it.
type savedReplay struct {
	Reads []replayUnits                       `json:"reads,omitempty"`
	ICM   map[string][]*ItemCollectionMetrics `json:"icm,omitempty"`
}

// replayUnits is one table's units in a savedReplay.
type replayUnits struct {
	Table string  `json:"t"`
	Units float64 `json:"u"`
}

// MarshalJSON encodes r as a savedReplay.
func (r txReplay) MarshalJSON() ([]byte, error) {
	var v savedReplay
	if r.o != nil {
		v.ICM = r.o.ItemCollectionMetrics
		for _, u := range r.o.replayReads {
			v.Reads = append(v.Reads, replayUnits{u.table, u.units.Table})
		}
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes a savedReplay into r.
func (r *txReplay) UnmarshalJSON(b []byte) error {
	var v savedReplay
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o := &TransactWriteItemsOutput{ItemCollectionMetrics: v.ICM}
	for _, u := range v.Reads {
		o.replayReads = append(o.replayReads, txUnits{table: u.Table, units: capacity.Tally{Table: u.Units}})
	}
	r.o = o
	return nil
}

// Bytes estimates the memory of r.
func (r txReplay) Bytes() int64 {
	if r.o == nil {
		return 0
	}
	n := int64(64 + 32*len(r.o.replayReads))
	for _, u := range r.o.replayReads {
		n += int64(len(u.table))
	}
	for name, list := range r.o.ItemCollectionMetrics {
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
