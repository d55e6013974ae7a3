package service

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The patch path (update_patch.go) against the map path: twin tables, one
// without indexes (UpdateItem takes the patch path there) and one with a
// global secondary index on an attribute no item has (the map path; the
// index changes no answer), get the same requests and must give the same
// answers and hold the same items.

// patchTwins are the twin tables' names: patch path, map path.
var patchTwins = [2]string{"patchpath", "mappath"}

// newPatchEnv returns an itemsEnv with the twin tables.
func newPatchEnv(t testing.TB) *itemsEnv {
	env := newItemsEnv(t)
	for i, name := range patchTwins {
		gsi, zz := "", ""
		if i == 1 {
			zz = `,{"AttributeName":"zz","AttributeType":"S"}`
			gsi = `,"GlobalSecondaryIndexes":[{"IndexName":"unused","KeySchema":[{"AttributeName":"zz","KeyType":"HASH"}],` +
				`"Projection":{"ProjectionType":"KEYS_ONLY"}}]`
		}
		env.mustOK("CreateTable", `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}`+zz+`],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`+gsi+`}`)
	}
	return env
}

// twinCall sends body (with TableName $T) to both twins and fails the
// test unless the answers are the same (the table names aside).
func (env *itemsEnv) twinCall(t testing.TB, op, body string) (int, string) {
	t.Helper()
	var status [2]int
	var out [2]string
	for i, name := range patchTwins {
		status[i], out[i] = env.call(op, strings.ReplaceAll(body, "$T", name))
		out[i] = strings.ReplaceAll(out[i], name, "$T")
	}
	if status[0] != status[1] || !testkit.JSONEqual(out[0], out[1]) && out[0] != out[1] {
		t.Fatalf("%s %s:\npatch path: %d %s\nmap path:   %d %s", op, body, status[0], out[0], status[1], out[1])
	}
	return status[0], out[0]
}

// bigValue is a large string value: three of it make an item too large.
var bigValue = strings.Repeat("z", 150_000)

// patchPaths are the paths the generated updates name.
var patchPaths = []string{"a", "b", "c", "n", "l", "l[0]", "l[1]", "l[5]", "m", "m.k", "m.j[0]", "m.x.y", "s",
	"big1", "big2", "big3", "#n", "a", "n", "m.k", "l[1]", "s", "c"}

// patchOperands are the SET right-hand sides.
var patchOperands = []string{":v", ":w", ":l", ":m", ":ss", ":e", ":big", ":v", ":w", ":m", ":l", "a", "b", "n", "m.k", "l[0]",
	"n + :n", "if_not_exists(n, :zero) - :w", "if_not_exists(c, :v)", "if_not_exists(n, :zero) + :n", "list_append(l, :l)", "list_append(:l, l)",
	"list_append(m.j, :l)", "#pk"}

// patchConditions are the ConditionExpressions.
var patchConditions = []string{"", "", "", "", "attribute_exists(pk)", "attribute_exists(pk)", "attribute_not_exists(pk)", "attribute_not_exists(a)",
	"n >= :zero", "size(l) > :n", "a = :v", "contains(s, :v) OR m.k = :v", "attribute_type(m, :t)", "begins_with(a, :v)"}

// randomUpdate returns an UpdateExpression over patchPaths: mostly
// updates that succeed (distinct attributes, fitting operands), sometimes
// one that fails.
func randomUpdate(r *rand.Rand) string {
	byOp := map[string][]string{}
	used := map[string]bool{}
	for range 1 + r.IntN(4) {
		p := testkit.Pick(r, patchPaths...)
		top := strings.FieldsFunc(p, func(c rune) bool { return c == '.' || c == '[' })[0]
		if used[top] && r.IntN(10) > 0 {
			continue // overlapping paths fail: seldom
		}
		used[top] = true
		switch op := testkit.Pick(r, "SET", "SET", "SET", "REMOVE", "ADD", "DELETE"); op {
		case "SET":
			byOp[op] = append(byOp[op], p+" = "+testkit.Pick(r, patchOperands...))
		case "REMOVE":
			byOp[op] = append(byOp[op], p)
		case "ADD":
			byOp[op] = append(byOp[op], p+" "+testkit.Pick(r, ":n", ":w", ":ss"))
		case "DELETE":
			byOp[op] = append(byOp[op], p+" :ss")
		}
	}
	var clauses []string
	for _, op := range []string{"SET", "REMOVE", "ADD", "DELETE"} {
		if len(byOp[op]) > 0 {
			clauses = append(clauses, op+" "+strings.Join(byOp[op], ", "))
		}
	}
	if len(clauses) == 0 {
		return "SET a = :v"
	}
	r.Shuffle(len(clauses), func(i, j int) { clauses[i], clauses[j] = clauses[j], clauses[i] })
	return strings.Join(clauses, " ")
}

// updateBody is an UpdateItem request on $T with update text upd,
// condition cond ("" for none), ReturnValues rv and the rest of the
// options from opts (0..3).
func updateBody(pk, sk int, upd, cond, rv string, opts int) string {
	var b strings.Builder
	b.WriteString(`{"TableName":"$T","Key":{"pk":{"S":"p` + strconv.Itoa(pk) + `"},"sk":{"N":"` + strconv.Itoa(sk) + `"}},`)
	b.WriteString(`"UpdateExpression":` + strconv.Quote(upd))
	names := map[string]bool{}
	values := false
	for _, text := range []string{upd, cond} {
		if strings.Contains(text, "#pk") {
			names[`"#pk":"pk"`] = true
		}
		if strings.Contains(text, "#n") {
			names[`"#n":"n"`] = true
		}
		values = values || strings.Contains(text, ":")
	}
	if cond != "" {
		b.WriteString(`,"ConditionExpression":` + strconv.Quote(cond))
	}
	if len(names) > 0 {
		var list []string
		for n := range names {
			list = append(list, n)
		}
		b.WriteString(`,"ExpressionAttributeNames":{` + strings.Join(list, ",") + `}`)
	}
	if values {
		// Unused values are an error; keep the ones the texts use.
		b.WriteString(`,"ExpressionAttributeValues":` + usedValues(upd+" "+cond))
	}
	if rv != "" {
		b.WriteString(`,"ReturnValues":"` + rv + `"`)
	}
	if opts&1 != 0 {
		b.WriteString(`,"ReturnValuesOnConditionCheckFailure":"ALL_OLD"`)
	}
	if opts&2 != 0 {
		b.WriteString(`,"ReturnConsumedCapacity":"TOTAL"`)
	}
	b.WriteString(`}`)
	return b.String()
}

// usedValues is the ExpressionAttributeValues map of the placeholders
// text uses.
func usedValues(text string) string {
	all := map[string]string{
		":v": `{"S":"x"}`, ":w": `{"N":"7"}`, ":n": `{"N":"1"}`, ":zero": `{"N":"0"}`,
		":l": `{"L":[{"N":"1"},{"S":"y"}]}`, ":ss": `{"SS":["p","q"]}`,
		":m": `{"M":{"k":{"S":"v"},"j":{"L":[{"N":"2"}]}}}`, ":t": `{"S":"M"}`, ":e": `{"S":""}`, ":big": `{"S":"` + bigValue + `"}`,
	}
	var parts []string
	for name, v := range all {
		if containsPlaceholder(text, name) {
			parts = append(parts, strconv.Quote(name)+":"+v)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// containsPlaceholder reports whether text uses placeholder name (not as
// the prefix of a longer one).
func containsPlaceholder(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		end := i + j + len(name)
		if end == len(text) || !isNameByte(text[end]) {
			return true
		}
		i = end
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// patchItem is an item with every attribute the updates name.
func patchItem(pk, sk int) string {
	return `{"pk":{"S":"p` + strconv.Itoa(pk) + `"},"sk":{"N":"` + strconv.Itoa(sk) + `"},"a":{"S":"x"},"b":{"S":"bee"},` +
		`"c":{"N":"3"},"n":{"N":"5"},"l":{"L":[{"N":"1"},{"M":{"k":{"S":"v"}}},{"SS":["p"]}]},` +
		`"m":{"M":{"k":{"S":"v"},"j":{"L":[{"N":"2"}]},"x":{"M":{"y":{"BOOL":true}}}}},"s":{"SS":["p","r"]},"zz2":{"NULL":true}}`
}

// compareTwins fails the test unless the twins hold the same items.
func compareTwins(t testing.TB, env *itemsEnv) {
	t.Helper()
	env.twinCall(t, "Scan", `{"TableName":"$T","ReturnConsumedCapacity":"TOTAL"}`)
}

// TestUpdatePatchMatchesMap runs random updates, conditions and options
// on items of every shape through both paths.
func TestUpdatePatchMatchesMap(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	r := rand.New(rand.NewPCG(seed, seed))
	env := newPatchEnv(t)
	outcomes := map[string]int{}
	rounds := 600
	if !testkit.FullSize() {
		rounds = 200
	}
	for i := range rounds {
		pk, sk := r.IntN(2), r.IntN(4)
		if i == 0 || r.IntN(6) == 0 {
			for pk := range 2 {
				for sk := range 4 {
					if i == 0 || r.IntN(4) == 0 {
						env.twinCall(t, "PutItem", `{"TableName":"$T","Item":`+patchItem(pk, sk)+`}`)
					}
				}
			}
			continue
		}
		if r.IntN(8) == 0 {
			env.twinCall(t, "DeleteItem", `{"TableName":"$T","Key":{"pk":{"S":"p`+strconv.Itoa(pk)+`"},"sk":{"N":"`+strconv.Itoa(sk)+`"}}}`)
			continue
		}
		rv := testkit.Pick(r, "", "NONE", "UPDATED_OLD", "UPDATED_NEW", "ALL_NEW", "ALL_OLD")
		body := updateBody(pk, sk, randomUpdate(r), testkit.Pick(r, patchConditions...), rv, r.IntN(4))
		status, out := env.twinCall(t, "UpdateItem", body)
		outcomes[outcome(status, out)]++
		if i%50 == 0 {
			compareTwins(t, env)
		}
	}
	compareTwins(t, env)
	t.Logf("outcomes: %v", outcomes)
	if outcomes["ok"] < rounds/8 {
		t.Fatalf("only %d of %d updates succeeded: the generator tests errors more than updates", outcomes["ok"], rounds)
	}
}

// outcome names an answer for the tally: ok, or the error type and
// message's start.
func outcome(status int, out string) string {
	if status == 200 {
		return "ok"
	}
	typ, msg := testkit.ErrorOf(out)
	return typ + ": " + msg[:min(len(msg), 40)]
}

// patchFuzzEnv is the fuzz target's service, made once per process: the
// twins' items carry over from input to input, alike while the paths
// agree.
var patchFuzzEnv struct {
	once sync.Once
	env  *itemsEnv
}

// FuzzUpdatePatch holds the patch path to the map path on any update and
// condition text the fuzzer finds.
func FuzzUpdatePatch(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(randomUpdate(r), testkit.Pick(r, patchConditions...), uint8(r.IntN(256)))
	}
	f.Add("SET a = :v, n = n + :n REMOVE m.k", "attribute_exists(pk) AND n >= :zero", uint8(0))
	f.Fuzz(func(t *testing.T, upd, cond string, opts uint8) {
		patchFuzzEnv.once.Do(func() { patchFuzzEnv.env = newPatchEnv(&fuzzSetup{}) })
		env := patchFuzzEnv.env
		env.t = t
		rv := []string{"", "NONE", "UPDATED_OLD", "UPDATED_NEW"}[opts&3]
		env.twinCall(t, "UpdateItem", updateBody(int(opts>>2&1), int(opts>>3&3), upd, cond, rv, int(opts>>5)))
		compareTwins(t, env)
	})
}

// fuzzSetup is the testing.TB the fuzz target's shared setup runs under:
// a failed setup panics.
type fuzzSetup struct{ testing.TB }

func (*fuzzSetup) Helper()                   {}
func (*fuzzSetup) Cleanup(func())            {}
func (*fuzzSetup) Fatal(args ...any)         { panic(args) }
func (*fuzzSetup) Fatalf(f string, a ...any) { panic(fmt.Sprintf(f, a...)) }

// TestUpdatePatchCases are the paths' edge cases, each on both twins.
func TestUpdatePatchCases(t *testing.T) {
	env := newPatchEnv(t)
	steps := []struct {
		name, upd, cond, rv string
		opts                int
		wantStatus          int
	}{
		{"remove from an absent item creates nothing", "REMOVE a, m.k", "", "UPDATED_NEW", 0, 200},
		{"set on an absent item", "SET a = :v, n = if_not_exists(n, :zero) + :n", "attribute_not_exists(pk)", "UPDATED_NEW", 2, 200},
		{"condition fails with ALL_OLD", "SET a = :v", "attribute_not_exists(pk)", "", 1, 400},
		{"two large values", "SET big1 = :big, big2 = :big", "", "NONE", 0, 200},
		{"a third is too large", "SET big3 = :big", "", "NONE", 0, 400},
		{"too large before the condition", "SET big3 = :big", "attribute_not_exists(pk)", "NONE", 1, 400},
		{"shrink", "REMOVE big1, big2", "attribute_exists(big1)", "UPDATED_OLD", 2, 200},
		{"nested set and list append", "SET m = :m, l = list_append(if_not_exists(l, :l), :l)", "", "UPDATED_OLD", 0, 200},
		{"nested paths", "SET m.k = a, l[5] = :w REMOVE l[0] ADD s :ss", "size(l) > :n", "UPDATED_NEW", 2, 200},
		{"delete empties a set", "DELETE s :ss", "contains(s, :v) OR m.k = :v", "UPDATED_OLD", 0, 200},
		{"same values again", "SET c = n", "", "NONE", 0, 200},
		{"operand error after the condition", "SET a = a + :n", "attribute_exists(nope)", "", 1, 400},
		{"operand error", "SET a = a + :n", "", "", 0, 400},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			status, out := env.twinCall(t, "UpdateItem", updateBody(0, 1, s.upd, s.cond, s.rv, s.opts))
			if status != s.wantStatus {
				t.Fatalf("got %d %s, want status %d", status, out, s.wantStatus)
			}
			compareTwins(t, env)
		})
	}
}

// TestUpdatePatchLegacy runs the legacy parameters (AttributeUpdates,
// Expected) through both paths.
func TestUpdatePatchLegacy(t *testing.T) {
	env := newPatchEnv(t)
	key := `"Key":{"pk":{"S":"p0"},"sk":{"N":"2"}}`
	bodies := []struct {
		body       string
		wantStatus int
	}{
		{`{"TableName":"$T",` + key + `,"AttributeUpdates":{"a":{"Value":{"S":"x"}},"n":{"Action":"ADD","Value":{"N":"2"}}},"ReturnValues":"UPDATED_NEW"}`, 200},
		{`{"TableName":"$T",` + key + `,"AttributeUpdates":{"l":{"Action":"ADD","Value":{"L":[{"N":"1"}]}},"a":{"Action":"DELETE"}},` +
			`"Expected":{"n":{"Value":{"N":"2"}},"a":{"Exists":true,"Value":{"S":"x"}}},"ReturnValues":"UPDATED_OLD"}`, 200},
		{`{"TableName":"$T",` + key + `,"AttributeUpdates":{"b":{"Value":{"S":"y"}}},"Expected":{"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"5"}]}},` +
			`"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`, 400},
		{`{"TableName":"$T",` + key + `,"AttributeUpdates":{"s":{"Action":"ADD","Value":{"SS":["p"]}}},"Expected":{"zz2":{"Exists":false}},` +
			`"ReturnConsumedCapacity":"TOTAL"}`, 200},
	}
	for i, b := range bodies {
		status, out := env.twinCall(t, "UpdateItem", b.body)
		if status != b.wantStatus {
			t.Fatalf("request %d: got %d %s, want status %d", i, status, out, b.wantStatus)
		}
		compareTwins(t, env)
	}
}
