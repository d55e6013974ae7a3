package service

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// partGuard is a KeyGuard stage that records what it is put (a key's
// partition, or "scan") and refuses the partition refused.
type partGuard struct {
	seen    []string
	refused string
}

func (g *partGuard) Watches(Table) bool                       { return false }
func (g *partGuard) Begin(*TableUse) error                    { return nil }
func (g *partGuard) End(*TableUse, Outcome)                   {}
func (g *partGuard) GuardsKeys(Table) bool                    { return true }
func (g *partGuard) GuardRead(Call, Table, storage.Key) error { return nil }

func (g *partGuard) GuardKey(_ Call, _ Table, k storage.Key) error {
	g.seen = append(g.seen, k.Partition.Str())
	if k.Partition.Str() == g.refused {
		return apierr.AccessDenied("refused " + g.refused)
	}
	return nil
}

func (g *partGuard) GuardScan(_ Call, _ Table, index string, p storage.Value) error {
	g.seen = append(g.seen, "scan"+index)
	return nil
}

// TestReadPageGuardsWhatItDeclares: Call.ReadPage, not the feature that
// calls it, puts the partitions its PageRead declares to the key guards
// (a PartiQL SELECT carries no check of its own): each partition, or the
// whole table when it declares none, nothing when it reads none; and a
// refused partition refuses the read before the feature's begin or read
// runs.
func TestReadPageGuardsWhatItDeclares(t *testing.T) {
	g := &partGuard{refused: "b"}
	p := newPipelineEnv(t, Config{Stages: []Stage{g}})
	ns := p.s.namespaceOf(pipelineAuthKey, pipelineRegion)
	c := Call{c: &call{svc: p.s, ns: ns, op: "ExecuteStatement", now: tablesClock}}
	tb := Table{t: ns.getTable("pipe")}
	part := func(v string) *expr.KeyCondition { return &expr.KeyCondition{Partition: storage.S(v)} }
	for _, tc := range []struct {
		name    string
		r       PageRead
		guarded []string
		refused bool
	}{
		{"partitions", PageRead{Parts: []*expr.KeyCondition{part("a"), part("c")}}, []string{"a", "c"}, false},
		{"scan", PageRead{}, []string{"scan"}, false},
		{"none", PageRead{None: true}, nil, false},
		{"refused", PageRead{Parts: []*expr.KeyCondition{part("a"), part("b")}}, []string{"a", "b"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g.seen = nil
			ran := false
			tc.r.Table, tc.r.Consistent = tb, true
			_, err := c.ReadPage(&tc.r, func() (PageUse, error) {
				ran = true
				return PageUse{Access: access.Scan}, nil
			}, func(view func() *storage.Table, visit func(storage.EncodedItem) bool) error {
				ran = true
				return nil
			})
			require.Equal(t, tc.guarded, g.seen)
			if tc.refused {
				require.Error(t, err)
				require.Contains(t, err.Error(), "refused b")
				require.False(t, ran, "the feature's begin or read ran after a refusal")
				return
			}
			require.NoError(t, err)
			require.True(t, ran)
		})
	}
}
