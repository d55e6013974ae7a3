package convcheck

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// TestTenantGuard: a table that opts in refuses a caller bound to one
// tenant the keys and scans of another, with AccessDeniedException, and
// reports each refusal; a cross-tenant caller and a table that does not
// opt in are not checked.
func TestTenantGuard(t *testing.T) {
	st, err := New(&conventions.Config{
		Tables:      []conventions.TableConfig{{Match: "orders", Policy: conventions.Policy{Roles: conventions.RoleData, Mode: conventions.ModeEnforce}}},
		Callers:     map[string]string{"bound": "tenant001"},
		CrossTenant: []string{"cross"},
	}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	require.NoError(t, err)
	keys := conventions.KeySchema{Partition: conventions.KeyAttribute{Name: "pk", Type: "S"}, Sort: conventions.KeyAttribute{Name: "sk", Type: "S"}}
	req := func(caller string) Req {
		return Req{Op: "GetItem", RequestID: "r", Now: time.Unix(0, 0), AccessKey: caller, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	}
	none, err := st.Attach(req("bound"), Table{Name: "other", Keys: keys}, nil, true, func() []string { return nil })
	require.NoError(t, err)
	require.Nil(t, none, "a table no entry matches takes no policy")
	tp, err := st.Attach(req("bound"), Table{Name: "orders", Keys: keys}, nil, true, func() []string { return nil })
	require.NoError(t, err)
	require.NotNil(t, tp)
	require.Equal(t, "orders", tp.Source)
	key := func(pk string) storage.Key { return storage.Key{Partition: storage.S(pk), Sort: storage.S("ORDER#1")} }
	tests := []struct {
		name, caller, pk string
		scan, denied     bool
	}{
		{name: "own tenant", caller: "bound", pk: "ORDER#tenant001"},
		{name: "another tenant", caller: "bound", pk: "ORDER#tenant002", denied: true},
		{name: "cross-tenant caller", caller: "cross", pk: "ORDER#tenant002"},
		{name: "unbound caller", caller: "nobody", pk: "ORDER#tenant002"},
		{name: "scan by a bound caller", caller: "bound", scan: true, denied: true},
		{name: "scan by a cross-tenant caller", caller: "cross", scan: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := st.Count("orders", "B10")
			var err error
			if tt.scan {
				err = tp.GuardScan(req(tt.caller), "orders", "")
			} else {
				err = tp.GuardKey(req(tt.caller), "orders", key(tt.pk))
			}
			if !tt.denied {
				require.NoError(t, err)
				require.Equal(t, before, st.Count("orders", "B10"))
				return
			}
			ae, ok := apierr.Classify(err)
			require.True(t, ok, "%v", err)
			require.Equal(t, apierr.ErrAccessDenied, ae.Class)
			require.Equal(t, before+1, st.Count("orders", "B10"))
		})
	}
	st.ResetReport()
	require.Zero(t, st.Count("orders", ""))
	snap := st.Snapshot([]conventions.CheckedTable{{Table: "orders"}, {Table: "a"}}, []string{"orders", "other"})
	require.Equal(t, "a", snap.Checked[0].Table, "checked tables sorted by name")
}
