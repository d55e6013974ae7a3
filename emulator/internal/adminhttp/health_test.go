package adminhttp

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// TestHealthOf: what the health endpoint answers for the problems a
// store reports: a full disk or a stopped log (writes fail) is 503
// "degraded" naming the cause, a compaction that keeps failing 200
// "warning", nothing 200 "ok".
func TestHealthOf(t *testing.T) {
	since := time.Date(2026, 11, 25, 3, 0, 0, 0, time.FixedZone("CET", 3600))
	full := persist.Problem{Namespace: "key_us-east-1", WritesFail: true, Since: since,
		Err: "persist: no space left on the device holding the data directory (/data/key_us-east-1): write: no space left on device"}
	compaction := persist.Problem{Namespace: "shared-local-instance", Err: "compaction failed (it is tried again): no space"}
	utc := since.UTC()
	cases := []struct {
		name   string
		probs  []persist.Problem
		status int
		want   healthAnswer
	}{
		{"none", nil, http.StatusOK, healthAnswer{Status: "ok", DataDir: "/data"}},
		{"disk full", []persist.Problem{full}, http.StatusServiceUnavailable, healthAnswer{Status: "degraded", DataDir: "/data",
			Problems: []healthProblem{{Namespace: full.Namespace, WritesFail: true, Error: full.Err, Since: &utc}}}},
		{"compaction failing", []persist.Problem{compaction}, http.StatusOK, healthAnswer{Status: "warning", DataDir: "/data",
			Problems: []healthProblem{{Namespace: compaction.Namespace, Error: compaction.Err}}}},
		{"both", []persist.Problem{compaction, full}, http.StatusServiceUnavailable, healthAnswer{Status: "degraded", DataDir: "/data",
			Problems: []healthProblem{{Namespace: compaction.Namespace, Error: compaction.Err}, {Namespace: full.Namespace, WritesFail: true, Error: full.Err, Since: &utc}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, ans := healthOf("/data", tc.probs)
			require.Equal(t, tc.status, status)
			require.Equal(t, tc.want, ans)
			body, err := json.Marshal(ans)
			require.NoError(t, err)
			if tc.status != http.StatusOK {
				require.Contains(t, string(body), "no space left on the device holding the data directory")
			}
		})
	}
}
