package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The stages (stage.go) in transactions:
// every action is put to the stages before the transaction takes its
// locks, so that a refusal (an injected conflict) wins over a condition,
// as a lock held by another transaction would, and no delay is slept
// under a lock; a refused action cancels the transaction with its code.

// txGet is one validated Get of a read transaction.
type txGet struct {
	t    *table
	key  storage.Key
	proj *expr.Projection
}

// txAccess is the report's access of a write transaction's action.
func txAccess(k txKind) access.Access {
	switch k {
	case txPut:
		return access.Put
	case txUpdate:
		return access.Update
	case txDelete:
		return access.Delete
	}
	return access.Get // a ConditionCheck reads the item
}

// txStages puts each action to the stages' Begin. It returns the reasons to cancel with (the refused
// actions' codes, None for the others; nil when none was refused) and
// each action's use (nil when nothing watches), or the error that fails
// the whole call: a refusal with no cancellation code
// (TransactionInProgress, InternalServerError, RequestLimitExceeded).
func (c *call) txStages(acts []*txAction) ([]apierr.CancellationReason, []*TableUse, error) {
	return txUses(c, acts, func(a *txAction) (*table, storage.Key, access.Access) { return a.t, a.key, txAccess(a.kind) })
}

// txGetStages is txStages for TransactGetItems and a PartiQL read
// transaction: a refused Get cancels the transaction with its code.
func (c *call) txGetStages(gets []*txGet) ([]*TableUse, error) {
	reasons, uses, err := txUses(c, gets, func(g *txGet) (*table, storage.Key, access.Access) { return g.t, g.key, access.Get })
	if err == nil && reasons != nil {
		err = apierr.TransactionCanceled(reasons)
	}
	return uses, err
}

// txUses is txStages over a transaction's elements, each of which names
// its table (nil: none, not put to the stages), key and access.
func txUses[E any](c *call, elems []E, of func(E) (*table, storage.Key, access.Access)) ([]apierr.CancellationReason, []*TableUse, error) {
	var reasons []apierr.CancellationReason
	var uses []*TableUse
	for i, e := range elems {
		t, key, acc := of(e)
		if t == nil {
			continue
		}
		u, err := c.beginUse(t, useOf{}, itemKey(t, key), nil, acc)
		if err != nil {
			code := apierr.CancellationCode(err)
			if code == "" {
				return nil, nil, err
			}
			if reasons == nil {
				reasons = noneReasons(len(elems))
			}
			reasons[i] = apierr.CancellationReason{Code: code, Message: errMessage(err)}
			continue
		}
		if u != nil {
			if uses == nil {
				uses = make([]*TableUse, len(elems))
			}
			uses[i] = u
		}
	}
	return reasons, uses, nil
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

// endTx tells each action's use what it consumed: transactional units.
func endTx(uses []*TableUse, acts []*txAction, changes []storage.Change) {
	for i, u := range uses {
		if u == nil {
			continue
		}
		a := acts[i]
		if a.kind == txCheck {
			u.end(Outcome{ReadUnits: capacity.TxReadUnits(a.cur)})
			continue
		}
		ch := changes[i]
		u.end(Outcome{WriteUnits: capacity.TxWriteUnits(max(ch.OldSize, ch.NewSize)), Change: ch, HasChange: true})
	}
}
