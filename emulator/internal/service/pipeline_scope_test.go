package service

import (
	"errors"
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// scopeEnv is a pipeline environment with one recording stage, and a call
// on its namespace as a data-plane handler gets one.
func scopeEnv(t *testing.T) (*recorder, *call, *table) {
	rec := &recorder{log: &seamLog{}}
	p := newPipelineEnv(t, Config{Stages: []Stage{rec}})
	rec.log.take() // the seeding writes'
	ns := p.s.namespaceOf(pipelineAuthKey, pipelineRegion)
	c := &call{svc: p.s, ns: ns, op: "PutItem", now: tablesClock}
	return rec, c, ns.getTable("pipe")
}

// TestScopeEndsEarlyReturns: a handler that leaves its scope early (an
// error of its own after the stages began the use, a panic) still ends
// the use, once, as refused and charging nothing; one that reports what
// it did ends it with that; a write its condition refuses is charged.
func TestScopeEndsEarlyReturns(t *testing.T) {
	key := storage.Key{Partition: storage.S("a")}
	t.Run("error", func(t *testing.T) {
		rec, c, tb := scopeEnv(t)
		early := apierr.Validation("the handler's own check, after Begin")
		err := c.useItem(tb, key, access.Put, func(*itemUse) error { return early })
		require.ErrorIs(t, err, early)
		requireUses(t, rec.log.take(), "PutItem", "pipe", true)
		require.False(t, c.scope.open, "the scope was left open")
	})
	t.Run("panic", func(t *testing.T) {
		rec, c, tb := scopeEnv(t)
		func() {
			defer func() { require.Equal(t, "a handler's bug", recover()) }()
			_ = c.useRead(tb, nil, access.KeyCondition{}, nil, access.Scan, false, func(*readUse) error { panic("a handler's bug") })
		}()
		requireUses(t, rec.log.take(), "PutItem", "pipe", true)
		require.False(t, c.scope.open, "the scope was left open")
	})
	t.Run("transaction", func(t *testing.T) {
		rec, c, tb := scopeEnv(t)
		acts := []*txAction{{kind: txPut, t: tb, key: key, item: storage.Item{"pk": storage.S("a")}}}
		failed := errors.New("failed after Begin")
		err := c.useTx(acts, func(*txUse, []apierr.CancellationReason) error { return failed })
		require.ErrorIs(t, err, failed)
		requireUses(t, rec.log.take(), "PutItem", "pipe", true)
		err = c.useTx(acts, func(*txUse, []apierr.CancellationReason) error {
			return apierr.TransactionCanceled([]apierr.CancellationReason{{Code: apierr.ReasonConditionalCheck}})
		})
		require.Error(t, err)
		requireUses(t, rec.log.take(), "PutItem", "pipe", false) // a cancelled transaction is charged
	})
	t.Run("reported", func(t *testing.T) {
		rec, c, tb := scopeEnv(t)
		err := c.useItem(tb, key, access.Get, func(u *itemUse) error {
			_, found := u.fetchItem(true)
			require.True(t, found)
			return nil
		})
		require.NoError(t, err)
		requireUses(t, rec.log.take(), "PutItem", "pipe", false)
	})
	t.Run("condition", func(t *testing.T) {
		rec, c, tb := scopeEnv(t)
		err := c.useItem(tb, key, access.Put, func(u *itemUse) error {
			_, _, err := u.storeItem(itemWrite{item: storage.Item{"pk": storage.S("a")}, size: 10,
				cond: mustCondition(t, "attribute_not_exists(pk)")})
			return err
		})
		require.ErrorIs(t, err, apierr.ErrConditionalCheckFailed)
		requireUses(t, rec.log.take(), "PutItem", "pipe", false) // charged as AWS charges a refused write
	})
}

// TestScopeEndsValidationAfterBegin: a Query whose start key fails its
// checks after the stages began its read answers the error, and its use
// is ended (as refused), not left open.
func TestScopeEndsValidationAfterBegin(t *testing.T) {
	rec := &recorder{log: &seamLog{}}
	p := newPipelineEnv(t, Config{Stages: []Stage{rec}})
	rec.log.take()
	status, body := p.do("Query", `{"TableName":"pipe","KeyConditionExpression":"pk = :p",`+
		`"ExpressionAttributeValues":{":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"b"}}}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, "ValidationException")
	requireUses(t, rec.log.take(), "Query", "pipe", true)
}

// mustCondition compiles a condition of no placeholders.
func mustCondition(t *testing.T, text string) *expr.Condition {
	cond, err := expr.NewCompiler(nil, nil).Condition("ConditionExpression", text)
	require.NoError(t, err)
	return cond
}
