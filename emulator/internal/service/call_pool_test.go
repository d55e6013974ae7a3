package service

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

// TestCallPoolZeroed serves requests, an error among them, and checks that
// the calls the pool hands out afterwards hold nothing of them (a reused
// call starts as a new one).
func TestCallPoolZeroed(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("PutItem", `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}`)
	res, _ := testkit.Do(t, env.h, "DynamoDB_20120810.GetItem", itemsAuth, `{"TableName":"nope","Key":{"pk":{"S":"a"}}}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "GetItem of a missing table")
	for i := range 4 {
		c := calls.Get()
		require.True(t, reflect.ValueOf(c).Elem().IsZero(), "pooled call %d: got %+v, want a zero call", i, *c)
		defer calls.Put(c)
	}
}
