package service

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// refKeyConditions is Query's KeyConditions as a map, as it was decoded
// before it was kept as a list (wire.KeyConditions).
type refKeyConditions struct {
	KeyConditions map[string]Condition `json:"KeyConditions"`
}

// TestKeyConditionsListSameAnswer: a Query's KeyConditions kept as a
// list gives the answers its map gave: the operator's constraint
// violation (which entry is named), then the compiled key condition or
// its error, on a table's key schema and on a multi-attribute index's.
func TestKeyConditionsListSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 23))
	names := []string{"pk", "sk", "x", "y", ""}
	ops := []string{"EQ", "BETWEEN", "BEGINS_WITH", "LT", "GE", "NE", "IN", "FOO", "bar", ""}
	values := []string{`{"S":"a"}`, `{"S":"b"}`, `{"N":"1"}`, `{"N":"5"}`, `{"SS":["a"]}`, `{"B":"AA=="}`}
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}
	multi := expr.MultiKeySchema{Partition: []storage.KeyAttr{ks.Partition, {Name: "x", Kind: storage.KindS}}, Sort: []storage.KeyAttr{ks.Sort}}
	for range 3000 {
		entries := make([]string, rng.IntN(7))
		for i := range entries {
			vals := make([]string, rng.IntN(4))
			for j := range vals {
				vals[j] = values[rng.IntN(len(values))]
			}
			op := `"ComparisonOperator":"` + ops[rng.IntN(len(ops))] + `",`
			if rng.IntN(8) == 0 {
				op = ""
			}
			entries[i] = fmt.Sprintf(`%q:{%s"AttributeValueList":[%s]}`, names[rng.IntN(len(names))], op, strings.Join(vals, ","))
		}
		body := `{"KeyConditions":{` + strings.Join(entries, ",") + `}}`
		var in QueryInput
		var ref refKeyConditions
		require.NoError(t, wire.DecodeRequest([]byte(body), &in), body)
		require.NoError(t, wire.DecodeRequest([]byte(body), &ref), body)
		require.Equal(t, readparams.ComparisonOpViolation("keyConditions", ref.KeyConditions, conditionOp), readparams.ComparisonOpViolationOf("keyConditions", in.KeyConditions), body)

		want, wantErr := expr.KeyConditions(legacyConditions(ref.KeyConditions), ks)
		got, gotErr := expr.KeyConditions(append(wire.KeyConditions(nil), in.KeyConditions...), ks)
		require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), body)
		require.Equal(t, want, got, body)

		wantM, wantErr := expr.MultiKeyConditions(legacyConditions(ref.KeyConditions), multi)
		gotM, gotErr := expr.MultiKeyConditions(in.KeyConditions, multi)
		require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), body)
		require.Equal(t, wantM, gotM, body)
	}
}
