package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// updateCutElems are a value's list elements: small values, nested ones,
// faults of values.
var updateCutElems = []string{`{"N":"0000001"}`, `{"S":"abc"}`, `{"BOOL":true}`, `{"L":[{"N":"1"}]}`, `{"M":{"a":{"S":""}}}`,
	`{"N":"x"}`, `{"SS":["a","a"]}`, `{}`, `null`, `{"M":{"":{"S":"v"}}}`, `{"S":1}`}

// updateCutList is a list value about the item size limit: mostly one
// small element, at times rarer ones (faults, nesting), at times one
// element nested close to the depth limit.
func updateCutList(r *rand.Rand) string {
	n := 120_000 + r.IntN(110_000)
	first := updateCutElems[r.IntN(5)]
	parts := make([]string, n)
	rare := []int{1 << 30, 1 << 30, 50_000, 5}[r.IntN(4)]
	kinds := len(updateCutElems) // faults only when rare
	if rare == 5 {
		kinds = 5
	}
	for i := range parts {
		parts[i] = first
		if r.IntN(rare) == 0 {
			parts[i] = updateCutElems[r.IntN(kinds)]
		}
	}
	if r.IntN(4) == 0 {
		deep := 22 + r.IntN(9)
		parts[r.IntN(n)] = strings.Repeat(`{"L":[`, deep) + `{"N":"1"}` + strings.Repeat(`]}`, deep)
	}
	return `{"L":[` + strings.Join(parts, ",") + `]}`
}

// updateCutBody is an UpdateItem whose values hold one or two lists
// about the limit, with at times other faults: a missing or bad table,
// a table with a GSI on the list's attribute, a bad key, a value unused
// or named only by the condition, if_not_exists, list_append, ADD and
// DELETE of a list, nested targets, a failing condition, ReturnValues,
// bad syntax.
func updateCutBody(r *rand.Rand) string {
	table := []string{"tab0", "tab0", "tab0", "gsi0", "gsi0", "missing", "bad name!"}[r.IntN(7)]
	key := []string{`{"pk":{"S":"k0"}}`, `{"pk":{"S":"k1"}}`, `{"pk":{"S":"k2"}}`, `{"pk":{"S":"k0"}}`, `{"pk":{"N":"1"}}`}[r.IntN(5)]
	update := []string{"SET l = :l", "SET l = :l", "SET l = if_not_exists(l, :l)", "SET l = if_not_exists(pk, :l)",
		"SET l = list_append(l, :l)", "SET l = list_append(:l, :s)", "SET g = :l", "SET m.x = :l", "SET m.x.y = :l",
		"SET l[1] = :l", "SET a = :s", "SET l = :l + :n", "ADD l :l", "DELETE l :l", "SET l = :l REMOVE pk",
		"SET l = = :l", "SET l = :l, m2 = :m", "SET a = :s, l = (:l)"}[r.IntN(18)]
	cond := []string{"", "", "", "attribute_not_exists(pk)", "attribute_exists(pk)", "l = :m", "size(:m) > :n", "size(:l) > :n"}[r.IntN(8)]
	values := []string{`":l":` + updateCutList(r)}
	uses := update + cond
	if strings.Contains(uses, ":m") || r.IntN(6) == 0 {
		values = append(values, `":m":`+updateCutList(r))
	}
	if strings.Contains(uses, ":s") || r.IntN(8) == 0 {
		values = append(values, `":s":{"L":[{"S":"x"}]}`)
	}
	if strings.Contains(uses, ":n") {
		values = append(values, `":n":{"N":"1"}`)
	}
	r.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
	body := `{"TableName":"` + table + `","Key":` + key + `,"UpdateExpression":"` + update + `"`
	if cond != "" {
		body += `,"ConditionExpression":"` + cond + `"`
		if r.IntN(2) == 0 {
			body += `,"ReturnValuesOnConditionCheckFailure":"ALL_OLD"`
		}
	}
	body += `,"ExpressionAttributeValues":{` + strings.Join(values, ",") + `}`
	body += []string{``, ``, `,"ReturnValues":"ALL_NEW"`, `,"ReturnValues":"UPDATED_OLD"`, `,"ReturnValues":"ALL_OLD"`}[r.IntN(5)]
	switch r.IntN(16) {
	case 0:
		return body[:len(body)-1-r.IntN(10)]
	case 1:
		return body + `,"ReturnConsumedCapacity":"BOGUS"}`
	}
	return body + `}`
}

// TestUpdateCutSameAnswer: an UpdateItem whose values hold a list cut
// over the item size limit gets the same answer as with the list held
// whole (random requests about the limit, with other faults, on tables
// whose items they change alike).
func TestUpdateCutSameAnswer(t *testing.T) {
	cutSameAnswer(t, "UpdateItem", updateCutBody, 11, apierr.MsgUpdatedItemTooLarge)
}

// cutSameAnswer sends random requests of op (body makes them, on a
// random stream seeded with the oversize seed and stream) to a service,
// read as they arrive, and to its whole-body reference (pair), whose
// tables the requests change alike, and requires the same answers; it
// counts those refused with message refused.
func cutSameAnswer(t *testing.T, op string, body func(*rand.Rand) string, stream uint64, refused string) {
	r := rand.New(rand.NewPCG(oversizeSeed(t), stream))
	p := &pair{s: updateCutService(t), ref: updateCutService(t), r: r}
	p.ref.limits = nil
	rounds := 20
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		rounds = 100
	}
	if testkit.RaceEnabled { // an UpdateItem's round took 17 s under the race detector
		rounds = 1
	}
	n := 0
	for i := range rounds {
		got := p.same(t, op, body(r), fmt.Sprint("case ", i))
		if strings.Contains(got, refused) {
			n++
		}
	}
	t.Logf("%d of %d refused for their size", n, rounds)
}

// updateCutService is a service with the tables of updateCutBody and
// its items.
func updateCutService(t *testing.T) *Service {
	t.Helper()
	s := oversizeService(t, "tab0")
	_, out := doService(t, s, TargetPrefix+"CreateTable", testkit.DefaultAuth, `{"TableName":"gsi0","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byg","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	require.Contains(t, out, "TableDescription")
	for _, table := range []string{"tab0", "gsi0"} {
		for i, item := range []string{`"l":{"L":[{"N":"1"}]},"m":{"M":{"x":{"M":{}}}}`, `"l":{"S":"x"}`} {
			_, out := doService(t, s, TargetPrefix+"PutItem", testkit.DefaultAuth,
				fmt.Sprintf(`{"TableName":"%s","Item":{"pk":{"S":"k%d"},%s}}`, table, i, item))
			require.Equal(t, "{}", out)
		}
	}
	return s
}

// statementCutBody is an ExecuteStatement whose parameters hold one or
// two lists about the limit: an INSERT's attribute, its key, a nested
// place, a WHERE clause's operand, an UPDATE's value, too few or extra
// parameters, a missing table, bad syntax.
func statementCutBody(r *rand.Rand) string {
	table := []string{"tab0", "tab0", "tab0", "gsi0", "missing"}[r.IntN(5)]
	stmt := []string{
		`INSERT INTO "%s" VALUE {'pk':'n%d','l':?}`, `INSERT INTO "%s" VALUE {'pk':'n%d','l':?}`,
		`INSERT INTO "%s" VALUE {'pk':'n%d','g':?}`, `INSERT INTO "%s" VALUE {'pk':?,'l':'n%d'}`,
		`INSERT INTO "%s" VALUE {'pk':'n%d','m':{'x':?}}`, `INSERT INTO "%s" VALUE {'pk':'n%d','l':?,'l2':?}`,
		`INSERT INTO "%s" VALUE {'pk':'k0','l':?}`, `SELECT * FROM "%s" WHERE pk = 'k%d' AND l = ?`,
		`UPDATE "%s" SET l = ? WHERE pk = 'k%d'`, `DELETE FROM "%s" WHERE pk = 'k%d' AND l = ?`,
		`INSERT INTO "%s" VALUE {'pk':'n%d','l':?`}[r.IntN(11)]
	if strings.Count(stmt, "%") == 2 {
		stmt = fmt.Sprintf(stmt, table, r.IntN(1000))
	} else {
		stmt = fmt.Sprintf(stmt, table)
	}
	params := []string{updateCutList(r)}
	for range r.IntN(3) {
		params = append(params, []string{updateCutList(r), `{"S":"x"}`}[r.IntN(2)])
	}
	b, _ := json.Marshal(stmt)
	return `{"Statement":` + string(b) + `,"Parameters":[` + strings.Join(params, ",") + `]}`
}

// TestStatementCutSameAnswer: an ExecuteStatement whose parameters hold
// a list cut over the item size limit gets the same answer as with the
// list held whole.
func TestStatementCutSameAnswer(t *testing.T) {
	cutSameAnswer(t, "ExecuteStatement", statementCutBody, 12, apierr.MsgItemTooLarge)
}
