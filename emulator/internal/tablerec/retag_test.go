package tablerec

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestRetagged: a record takes the tags of the record of the table as
// it is now, none included, keeping every other member and its features'
// slots; the same tags give the record back untouched.
func TestRetagged(t *testing.T) {
	at := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	then := Encode(&Table{Name: "t", ID: "id", Created: at, BillingMode: "PAY_PER_REQUEST"}, map[string]json.RawMessage{"ttl": []byte(`{"a":1}`)})
	now := Encode(&Table{Name: "t", ID: "id", Created: at, Tags: []Key{{Name: "dynamoemu:conventions", Value: "command"}}}, nil)

	b, differ, err := Retagged(then, now)
	require.NoError(t, err)
	require.True(t, differ)
	r, slots, err := Decode(b, []string{"ttl"}, nil)
	require.NoError(t, err)
	require.Equal(t, []Key{{Name: "dynamoemu:conventions", Value: "command"}}, r.Tags)
	require.Equal(t, "PAY_PER_REQUEST", r.BillingMode)
	require.JSONEq(t, `{"a":1}`, string(slots["ttl"]))

	back, differ, err := Retagged(b, then)
	require.NoError(t, err)
	require.True(t, differ)
	r, _, err = Decode(back, nil, nil)
	require.NoError(t, err)
	require.Empty(t, r.Tags)

	same, differ, err := Retagged(now, now)
	require.NoError(t, err)
	require.False(t, differ)
	require.Equal(t, now, same)

	_, _, err = Retagged([]byte("{"), now)
	require.True(t, errors.Is(err, storage.ErrCorrupt))
}

// FuzzRetagged: any two inputs give a record, or ErrCorrupt; never a
// panic. A record retagged with its own tags is itself.
func FuzzRetagged(f *testing.F) {
	f.Add([]byte(`{"v":1,"tags":[{"n":"a","v":"b"}]}`), []byte(`{"v":1}`))
	f.Add([]byte(`{}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, b, now []byte) {
		out, differ, err := Retagged(b, now)
		if err != nil {
			require.True(t, errors.Is(err, storage.ErrCorrupt), err)
			return
		}
		if !differ {
			require.Equal(t, b, out)
		}
	})
}
