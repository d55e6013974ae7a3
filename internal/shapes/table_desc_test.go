package shapes

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTableDescriptionAdd: the members a feature adds follow the
// description's own, in the order added; a client decoding the answer
// reads the own members back (the timestamp to the millisecond) and
// drops the added ones.
func TestTableDescriptionAdd(t *testing.T) {
	at := time.Date(2026, 11, 27, 7, 0, 0, 938e6, time.UTC)
	d := TableDescription{TableName: "orders", TableStatus: "ACTIVE", CreationDateTime: EpochTime(at),
		KeySchema: []KeySchemaElement[string]{{AttributeName: "pk", KeyType: "HASH"}}}
	plain, err := json.Marshal(&d)
	require.NoError(t, err)
	d.Add("Replicas", []map[string]string{{"RegionName": "eu-west-1"}})
	d.Add("GlobalTableVersion", "2019.11.21")
	got, err := json.Marshal(&d)
	require.NoError(t, err)
	want := string(plain[:len(plain)-1]) + `,"Replicas":[{"RegionName":"eu-west-1"}],"GlobalTableVersion":"2019.11.21"}`
	require.Equal(t, want, string(got))
	require.Contains(t, string(got), `"CreationDateTime":1795762800.938,`)

	var back TableDescription
	require.NoError(t, json.Unmarshal(got, &back))
	require.Equal(t, "orders", back.TableName)
	require.True(t, at.Equal(back.CreationDateTime.Time()), "got %v, want %v", back.CreationDateTime.Time(), at)
	again, err := json.Marshal(&back)
	require.NoError(t, err)
	require.Equal(t, string(plain), string(again), "a decoded description holds no added member")
}
