package stagestate

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
)

// The saved forms as data directories hold them: a change of the
// encoding fails here.
func TestSavedForms(t *testing.T) {
	at := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		rec  any
		want string
	}{
		{"lags", Lags([]LagState{{Table: "t", Index: "g", Delay: time.Second, Pending: 3}, {Table: "t", Reads: true, Hold: true}}),
			`{"v":1,"lags":[{"table":"t","index":"g","delayNs":1000000000},{"table":"t","reads":true,"hold":true}]}`},
		{"contributor insights", ContributorInsights([]accessreport.CIState{{Table: "t", Status: "ENABLED", Changed: at, Created: at}}),
			`{"v":1,"states":[{"table":"t","status":"ENABLED","changed":"2026-11-25T08:00:00Z","created":"2026-11-25T08:00:00Z"}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.rec)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
		})
	}
}

func TestDecode(t *testing.T) {
	lags, v, err := DecodeLags([]byte(`{"v":1,"lags":[{"table":"t","stream":true,"delayNs":5}]}`))
	require.NoError(t, err)
	require.Equal(t, LagsVersion, v)
	require.Equal(t, []LagState{{Table: "t", Stream: true, Delay: 5}}, lags)
	_, v, err = DecodeLags([]byte(`{"v":7}`))
	require.NoError(t, err)
	require.Equal(t, 7, v)
	_, _, err = DecodeContributorInsights([]byte(`{"v":1,"states":{}}`))
	require.Error(t, err)
}

func TestGate(t *testing.T) {
	now := time.Unix(0, 0)
	held, _ := LagSetting{Hold: true}.Gate(func() time.Time { return now }).Settings()
	_, hold := LagSetting{Hold: true}.Gate(func() time.Time { return now }).Settings()
	delay, _ := LagSetting{Delay: time.Minute}.Gate(func() time.Time { return now }).Settings()
	require.Zero(t, held)
	require.True(t, hold)
	require.Equal(t, time.Minute, delay)
}

// FuzzDecode feeds saved records to both decoders: an error or a value,
// never a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"lags":[{"table":"t","index":"g","delayNs":1000}]}`))
	f.Add([]byte(`{"v":1,"states":[{"table":"t","status":"ENABLED"}]}`))
	f.Add([]byte(`{"v":2,"lags":null}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, err := DecodeLags(b); err == nil && !json.Valid(b) {
			t.Fatal("invalid JSON decoded")
		}
		if _, _, err := DecodeContributorInsights(b); err == nil && !json.Valid(b) {
			t.Fatal("invalid JSON decoded")
		}
	})
}
