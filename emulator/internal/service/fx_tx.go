package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Fault injection, throttling and the report in transactions
// (faults/WIRING.md §2 and §3): every action is put to the fault rules
// and the throttler before the transaction takes its locks, so that a
// conflict wins over a condition, as a lock held by another transaction
// would, and no delay is slept under a lock.

// txAccess is the report's access of a write transaction's action.
func txAccess(k txKind) insights.Access {
	switch k {
	case txPut:
		return insights.Put
	case txUpdate:
		return insights.Update
	case txDelete:
		return insights.Delete
	}
	return insights.Get // a ConditionCheck reads the item
}

// txFaults runs the fault rules and the throttler on each action. It
// returns the reasons to cancel with (the refused actions' codes, None for
// the others; nil when none was refused) and each action's use (nil when
// nothing watches), or the error that fails the whole call: a fault with
// no cancellation code (TransactionInProgress, InternalServerError,
// RequestLimitExceeded).
func (c *call) txFaults(acts []*txAction) ([]apierr.CancellationReason, []*fxUse, error) {
	var reasons []apierr.CancellationReason
	var uses []*fxUse
	for i, a := range acts {
		if a.t == nil {
			continue
		}
		u, err := c.fxBegin(a.t, nil, itemKey(a.t, a.key), txAccess(a.kind), false)
		if err != nil {
			code := cancellationCode(err)
			if code == "" {
				return nil, nil, err
			}
			if reasons == nil {
				reasons = noneReasons(len(acts))
			}
			reasons[i] = apierr.CancellationReason{Code: code, Message: errMessage(err)}
			continue
		}
		if u != nil {
			if uses == nil {
				uses = make([]*fxUse, len(acts))
			}
			uses[i] = u
		}
	}
	return reasons, uses, nil
}

// txGetFaults is txFaults for TransactGetItems and a PartiQL read
// transaction: a refused Get cancels the transaction with its code.
func (c *call) txGetFaults(gets []*txGet) ([]*fxUse, error) {
	var reasons []apierr.CancellationReason
	var uses []*fxUse
	for i, g := range gets {
		u, err := c.fxBegin(g.t, nil, itemKey(g.t, g.key), insights.Get, false)
		if err != nil {
			code := cancellationCode(err)
			if code == "" {
				return nil, err
			}
			if reasons == nil {
				reasons = noneReasons(len(gets))
			}
			reasons[i] = apierr.CancellationReason{Code: code, Message: errMessage(err)}
			continue
		}
		if u != nil {
			if uses == nil {
				uses = make([]*fxUse, len(gets))
			}
			uses[i] = u
		}
	}
	if reasons != nil {
		return nil, apierr.TransactionCanceled(reasons)
	}
	return uses, nil
}

// noneReasons returns n reasons of code None.
func noneReasons(n int) []apierr.CancellationReason {
	r := make([]apierr.CancellationReason, n)
	for i := range r {
		r[i].Code = apierr.ReasonNone
	}
	return r
}

// errMessage is the message of an apierr error.
func errMessage(err error) string {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Error()
	}
	return err.Error()
}

// mergeReasons puts the refused actions' reasons over the evaluated ones:
// a conflict wins over a condition.
func mergeReasons(reasons, refused []apierr.CancellationReason) {
	for i, r := range refused {
		if r.Code != apierr.ReasonNone {
			reasons[i] = r
		}
	}
}

// endTx tells each action's use what it consumed: transactional units,
// twice the standard ones.
func endTx(uses []*fxUse, acts []*txAction, changes []storage.Change) {
	for i, u := range uses {
		if u == nil {
			continue
		}
		a := acts[i]
		if a.kind == txCheck {
			u.end(2*readUnits(a.cur, true), 0, nil, 0, 0)
			continue
		}
		ch := changes[i]
		var gsiUnits map[*tablespec.IndexDef]float64
		if gsis, _ := a.t.indexes(); u.th && len(gsis) > 0 {
			gsiUnits = indexWriteUnits(a.t.schema, gsis, ch)
		}
		u.end(0, 2*writeUnits(max(ch.OldSize, ch.NewSize)), gsiUnits, 0, 0)
	}
}
