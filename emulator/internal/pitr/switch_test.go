package pitr

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"sort"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPITRSwitchOnDuringWrites: point-in-time recovery is turned on while
// writers run (PutItem, BatchWriteItem, TransactWriteItems): the writes
// the recorder did not hear of, because no table had a history when
// storage asked it (hook_select.go), are in the history's base, so a
// restore to the latest time holds exactly the table's items. Run under
// -race; each round interleaves differently.
func TestPITRSwitchOnDuringWrites(t *testing.T) {
	env := newEnv(t)
	const writers, writes, keys = 4, 60, 20
	for round := range 4 {
		src, dst := fmt.Sprintf("src%d", round), fmt.Sprintf("dst%d", round)
		env.must("CreateTable", `{"TableName":"`+src+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range writes {
					item := fmt.Sprintf(`{"pk":{"S":"w%d-%d"},"n":{"N":"%d"}}`, w, i%keys, i)
					var op, body string
					switch i % 3 {
					case 0:
						op, body = "PutItem", `{"TableName":"`+src+`","Item":`+item+`}`
					case 1:
						op, body = "BatchWriteItem", `{"RequestItems":{"`+src+`":[{"PutRequest":{"Item":`+item+`}}]}}`
					default:
						op, body = "TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"`+src+`","Item":`+item+`}}]}`
					}
					if status, out := env.send(op, body); status != http.StatusOK {
						t.Errorf("%s: %d %s", op, status, out)
						return
					}
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"TableName":"` + src + `","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`
			if status, out := env.send("UpdateContinuousBackups", body); status != http.StatusOK {
				t.Errorf("UpdateContinuousBackups: %d %s", status, out)
			}
		}()
		testkit.WaitOrDump(t, &wg)
		if t.Failed() {
			return
		}
		env.must("RestoreTableToPointInTime", `{"SourceTableName":"`+src+`","TargetTableName":"`+dst+`","UseLatestRestorableTime":true}`)
		got, want := scanAll(t, env, dst), scanAll(t, env, src)
		if len(want) != writers*keys {
			t.Fatalf("round %d: source holds %d items, want %d", round, len(want), writers*keys)
		}
		if !maps.Equal(got, want) {
			t.Errorf("round %d: restored table differs from its source:\ngot  %v\nwant %v", round, sorted(got), sorted(want))
		}
	}
}

// scanAll returns the items of table name as pk -> n.
func scanAll(t *testing.T, env *clockEnv, name string) map[string]string {
	t.Helper()
	var out struct {
		Items []struct {
			Pk struct{ S string } `json:"pk"`
			N  struct{ N string } `json:"n"`
		}
		LastEvaluatedKey json.RawMessage
	}
	testkit.MustUnmarshal(t, env.must("Scan", `{"TableName":"`+name+`"}`), &out)
	if out.LastEvaluatedKey != nil {
		t.Fatalf("Scan of %s: more than one page", name)
	}
	m := make(map[string]string, len(out.Items))
	for _, it := range out.Items {
		m[it.Pk.S] = it.N.N
	}
	return m
}

func sorted(m map[string]string) []string {
	var s []string
	for k, v := range m {
		s = append(s, k+"="+v)
	}
	sort.Strings(s)
	return s
}
