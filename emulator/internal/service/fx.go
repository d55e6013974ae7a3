package service

import (
	"errors"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What the core keeps of the instruments (faults/WIRING.md is the
// design), whose stages of the pipeline (stage.go) live in
// emulator/internal/stages: each namespace's access-pattern recorder
// with the report's settings, the capacity mode of a watched write, and
// the errors a batch or a transaction treats apart. With no rule, no
// throttled table and no report reader, no stage runs and nothing is
// allocated (Table.watchers). The handlers reach the stages through the
// request pipeline's entry points (pipeline_item.go), not directly.

// fxState is the report's settings that every namespace's recorder
// follows.
type fxState struct {
	mu        sync.Mutex // guards reporting and design; a leaf
	reporting bool
	design    *insights.Design

	// saveMu serializes the saves of Contributor Insights configurations
	// (fx_persist.go); held over a recorder's lock and a DB's SetMeta,
	// never with a table's lock.
	saveMu sync.Mutex
}

// initFx gives a new namespace its recorder, with the service's report
// settings.
func (s *Service) initFx(ns *Namespace) {
	ns.rec = insights.New(insights.Options{Clock: s.clock})
	s.fx.mu.Lock()
	defer s.fx.mu.Unlock()
	if s.fx.design != nil {
		ns.rec.SetDesign(s.fx.design)
	}
	if s.fx.reporting {
		ns.rec.SetReporting(true)
	}
}

// recorder returns the namespace's recorder (nil for a namespace not
// registered).
func (ns *Namespace) recorder() *insights.Recorder {
	if ns == nil {
		return nil
	}
	return ns.rec
}

// capMode is the capacity mode a write reports in: the request's, or
// INDEXES when the use is watched and the table has indexes, so that the
// write decodes the item it replaces and its GSI units can be charged.
func (u *TableUse) capMode(mode string) string {
	if u == nil {
		return mode
	}
	return watchedCapMode(mode)
}

// watchedCapMode is the capacity mode of a watched write: INDEXES when
// the request asks for none.
func watchedCapMode(mode string) string {
	if mode == "" || mode == capacityNone {
		return capacityIndexes
	}
	return mode
}

// itemKey is the key condition of an item operation on t.
func itemKey(t *table, k storage.Key) insights.KeyCondition {
	kc := insights.KeyCondition{Partition: k.Partition}
	if t.schema.HasSort() {
		kc.SortOp, kc.Sort = insights.SortEQ, k.Sort
	}
	return kc
}

// queryKey is the key condition of a Query.
func queryKey(pk storage.Value, sc storage.SortCondition) insights.KeyCondition {
	return insights.KeyCondition{Partition: pk, SortOp: insights.SortOp(sc.Op), Sort: sc.Values[0], Sort2: sc.Values[1]}
}

// unprocessable reports whether a batch item refused with err goes back
// in UnprocessedItems or UnprocessedKeys (AWS's BatchWriteItem reference:
// the items that fail because the provisioned throughput is exceeded or
// an internal processing failure) rather than failing the call.
func unprocessable(err error) bool {
	return errors.Is(err, apierr.ErrProvisionedThroughputExceeded) || errors.Is(err, apierr.ErrThrottling) ||
		errors.Is(err, apierr.ErrRequestLimitExceeded) || errors.Is(err, apierr.ErrInternalServer)
}

// cancellationCode is the CancellationReason code of a transaction's
// action refused with err, or "" when err fails the whole call.
func cancellationCode(err error) string {
	switch {
	case errors.Is(err, apierr.ErrTransactionConflict):
		return "TransactionConflict"
	case errors.Is(err, apierr.ErrConditionalCheckFailed):
		return "ConditionalCheckFailed"
	case errors.Is(err, apierr.ErrProvisionedThroughputExceeded):
		return "ProvisionedThroughputExceeded"
	case errors.Is(err, apierr.ErrThrottling):
		return "ThrottlingError"
	}
	return ""
}

// forgetFx drops a deleted table's Contributor Insights.
func (ns *Namespace) forgetFx(table string) {
	if ns.rec != nil {
		ns.rec.ForgetContributorInsights(table, "")
		ns.saveContributorInsights()
	}
}
