package service

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// placeholderBody is an UpdateItem of tha's item "a" whose
// ExpressionAttributeValues hold :a plus the given entries and whose
// ExpressionAttributeNames (when names is not "") are names.
func placeholderBody(update, values, names string) string {
	b := `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"` + update + `","ExpressionAttributeValues":{":a":{"S":"1"}` + values + `}`
	if names != "" {
		b += `,"ExpressionAttributeNames":{` + names + `}`
	}
	return b + `}`
}

// manyValues is n entries ,":v100000":{"S":"x"},... (9 bytes each as
// measured); manyValuesAs names them with another letter than v.
func manyValues(n int) string { return manyValuesAs("v", n) }

func manyValuesAs(letter string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`,":` + letter + strconv.Itoa(100000+i) + `":{"S":"x"}`)
	}
	return b.String()
}

// manyNames is n entries "#n100000":"x",... (9 bytes each as measured);
// manyNamesAs names them with another letter than n.
func manyNames(n int) string { return manyNamesAs("n", n) }

func manyNamesAs(letter string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"#` + letter + strconv.Itoa(100000+i) + `":"x"`)
	}
	return b.String()
}

// TestPlaceholderSizeLimit: AWS's 2 MB limit on the placeholder maps
// (wire_placeholders.go), its boundary, its three messages and where it
// comes among the other checks (DynamoDB Local's order).
func TestPlaceholderSizeLimit(t *testing.T) {
	env := newItemsEnv(t)
	const max = wire.MaxSubstitutionBytes
	str := func(n int) string { return strings.Repeat("x", n) }
	// A Scan filtered by filter, with the maps given.
	scanBy := func(filter, values, names string) string {
		b := `{"TableName":"tha","FilterExpression":"` + filter + `","ExpressionAttributeValues":{` + values + `}`
		if names != "" {
			b += `,"ExpressionAttributeNames":` + names
		}
		return b + `}`
	}
	scan := func(values, names string) string { return scanBy("a = :a", values, names) }
	const empty = `{"Items":[],"Count":0,"ScannedCount":0}`
	const (
		tooManyValues = apierr.MsgValuesTooLarge
		tooManyNames  = apierr.MsgNamesTooLarge
		combined      = apierr.MsgCombinedTooLarge
	)
	// n placeholders of 9 bytes: 233,017 is just over 2 MB with :a.
	over := max/9 + 1
	env.run(t, []itemCase{
		{name: "values at the limit", op: "Scan", body: scan(`":a":{"S":"`+str(max-2)+`"}`, ""), want: empty},
		{name: "values a byte over", op: "Scan", body: scan(`":a":{"S":"`+str(max-1)+`"}`, ""), errType: vErr, errMsg: tooManyValues},
		{name: "key bytes count", op: "Scan", body: scanBy("a = :abc", `":abc":{"S":"`+str(max-3)+`"}`, ""), errType: vErr, errMsg: tooManyValues},
		{name: "names at the limit", op: "Scan", body: scanBy("#n = :a", `":a":{"S":"1"}`, `{"#n":"`+str(max-2)+`"}`),
			errType: vErr, errMsg: "ExpressionAttributeNames contains invalid value: " + expr.MsgAttributeNameTooLarge + " for key #n"},
		{name: "names over", op: "UpdateItem", body: placeholderBody("SET a = :a", "", manyNames(over)), errType: vErr, errMsg: tooManyNames},
		{name: "values over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over), ""), errType: vErr, errMsg: tooManyValues},
		{name: "each under, together over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over/2+1), manyNames(over/2+1)), errType: vErr, errMsg: combined},
		{name: "names first", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over), manyNames(over)), errType: vErr, errMsg: tooManyNames},
		// The maps' own checks come first, wherever the bad entry is.
		{name: "bad value key in a map over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over/2)+`,"v":{"S":"1"}`+manyValuesAs("w", over/2+1), ""),
			errType: vErr, errMsg: `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{name: "smallest bad value key", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over)+`,"w":{"S":"1"},"v":{"S":"1"}`, ""),
			errType: vErr, errMsg: `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{name: "long value key in a map over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over)+`,":`+str(300)+`":{"S":"1"},"v":{"S":"1"}`, ""),
			errType: vErr, errMsg: "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
		{name: "bad name key before values over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over), `"n":"x"`),
			errType: vErr, errMsg: `ExpressionAttributeNames contains invalid key: Syntax error; key: "n"`},
		{name: "empty name in a map over", op: "UpdateItem", body: placeholderBody("SET a = :a", "", manyNames(over)+`,"#e":""`),
			errType: vErr, errMsg: "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e"},
		{name: "bad name key rule first", op: "UpdateItem", body: placeholderBody("SET a = :a", "", manyNames(over)+`,"#e":"","n":"x"`),
			errType: vErr, errMsg: `ExpressionAttributeNames contains invalid key: Syntax error; key: "n"`},
		{name: "bad value in a map over", op: "UpdateItem", body: placeholderBody("SET a = :a", manyValues(over)+`,":z":{"N":"x"}`, ""),
			errType: vErr, errMsg: "1 validation error detected: The parameter cannot be converted to a numeric value: x"}, // UpdateItem's layer (value_layers.go)
		{name: "empty values map first", op: "UpdateItem", body: `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{},"ExpressionAttributeNames":{` + manyNames(over) + `}}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeValues must not be empty"},
		// The size comes before any expression is parsed.
		{name: "before a syntax error", op: "UpdateItem", body: placeholderBody("SET a = = :a", manyValues(over), ""), errType: vErr, errMsg: tooManyValues},
		{name: "before the expression size", op: "UpdateItem", body: placeholderBody("SET a = :a"+str(5000), manyValues(over), ""), errType: vErr, errMsg: tooManyValues},
		// Every operation with placeholder maps, per map set.
		{name: "put", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_exists(:a)","ExpressionAttributeValues":{":a":{"S":"1"}` + manyValues(over) + `}}`,
			errType: vErr, errMsg: tooManyValues},
		{name: "get", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"a"}},"ProjectionExpression":"#n100000","ExpressionAttributeNames":{` + manyNames(over) + `}}`,
			errType: vErr, errMsg: tooManyNames},
		{name: "query", op: "Query", body: `{"TableName":"tha","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"1"}` + manyValues(over) + `}}`,
			errType: vErr, errMsg: tooManyValues},
		{name: "transaction action", op: "TransactWriteItems", body: `{"TransactItems":[{"Update":{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"1"}` + manyValues(over) + `}}}]}`,
			errType: vErr, errMsg: tooManyValues},
		{name: "transaction: per action", op: "TransactWriteItems", body: `{"TransactItems":[` +
			`{"Put":{"TableName":"tha","Item":{"pk":{"S":"a"}},"ConditionExpression":"NOT a = :a","ExpressionAttributeValues":{":a":{"S":"` + str(max/2) + `"}}}},` +
			`{"Put":{"TableName":"tha","Item":{"pk":{"S":"b"}},"ConditionExpression":"NOT a = :a","ExpressionAttributeValues":{":a":{"S":"` + str(max/2) + `"}}}}]}`,
			want: `{}`},
		// A member given twice merges; a map over stays over.
		{name: "names twice, second small", op: "UpdateItem", body: `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"1"}},` +
			`"ExpressionAttributeNames":{` + manyNames(over) + `},"ExpressionAttributeNames":{"#x":"x"}}`, errType: vErr, errMsg: tooManyNames},
		{name: "names twice, together over", op: "UpdateItem", body: `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"1"}},` +
			`"ExpressionAttributeNames":{` + manyNames(over/2+1) + `},"ExpressionAttributeNames":{` + manyNamesAs("m", over/2+1) + `}}`, errType: vErr, errMsg: tooManyNames},
	})
	// Under the limit, the next check is the unused placeholders.
	status, body := env.call("UpdateItem", placeholderBody("SET a = :a", manyValues(over/2), ""))
	if typ, msg := testkit.ErrorOf(body); status != 400 || typ != vErr || !strings.HasPrefix(msg, "Value provided in ExpressionAttributeValues unused in expressions: keys: {") {
		t.Errorf("values under the limit, unused: got %d %s %.100q, want the unused placeholders", status, typ, msg)
	}
}

// TestPlaceholderStandIn: for random maps, the stand-in of a map too
// large to keep gets the error expr.Compiler.Err gives for the whole map.
func TestPlaceholderStandIn(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	keys := []string{"#a", "#b", "#zz", "a", "b", "#", "#a-b", "#" + strings.Repeat("k", 260), "#" + strings.Repeat("j", 300), ":a", ":b", ":", "x:", ":a b", ":" + strings.Repeat("k", 260), "#é", ""}
	names := []string{"x", "", "y", strings.Repeat("n", expr.MaxAttributeNameBytes+1)}
	for i := range 2000 {
		n, v := map[string]string{}, map[string]storage.Value{}
		var wn wire.Witnesses[string]
		var wv wire.Witnesses[storage.Value]
		for range r.IntN(6) {
			k, name := keys[r.IntN(len(keys))], names[r.IntN(len(names))]
			if k != "" && k[0] == ':' {
				k = "#" + k[1:]
			}
			n[k] = name
		}
		for range r.IntN(6) {
			k := keys[r.IntN(len(keys))]
			if k != "" && k[0] == '#' {
				k = ":" + k[1:]
			}
			v[k] = storage.N("1")
		}
		for k, name := range n {
			wn.See('#', k, name, name)
		}
		for k := range v {
			wv.See(':', k, storage.Null(), "")
		}
		sn, _ := wire.WithoutStandIn(wn.StandIn())
		sv, _ := wire.WithoutStandIn(wv.StandIn())
		want, got := expr.NewCompiler(n, v).Err(), expr.NewCompiler(sn, sv).Err()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("case %d: names %q values %v: stand-in gives %v, want %v", i, n, v, got, want)
		}
	}
}

// FuzzPlaceholderMaps: the placeholder maps' decoders agree with
// encoding/json on what they keep (maps of up to 2 MB).
func FuzzPlaceholderMaps(f *testing.F) {
	for _, s := range []string{
		`{"ExpressionAttributeNames":{"#a":"x","#b":null,"#c":5,"#a":"y"}}`,
		`{"ExpressionAttributeNames":{"#a":"x"},"ExpressionAttributeNames":{"#b":"y"}}`,
		`{"ExpressionAttributeNames":null}`, `{"ExpressionAttributeNames":[]}`, `{"ExpressionAttributeNames":{"#a":[1]}}`,
		`{"ExpressionAttributeValues":{":a":{"S":"x"},":b":{"N":"01"}}}`, `{"ExpressionAttributeValues":{":a":null}}`,
		`{"ExpressionAttributeValues":{":a":{"N":"x"}},"TableName":5}`, `{"ExpressionAttributeNames":{"#a":"\u00e9\ud83d\ude00"}}`,
	} {
		f.Add([]byte(s))
	}
	names := memberNames()
	types := []any{new(UpdateItemInput), new(QueryInput)}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkTypesAgainstStd(t, body, names, types)
	})
}

// TestPlaceholderMapChecks: the placeholder maps are checked (keys of the
// names, keys of the values, then empty names) before any expression is
// parsed and before the key, in every write and read that compiles
// expressions. Messages and order recorded from DynamoDB Local.
func TestPlaceholderMapChecks(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	const nameKey = `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`
	const valueKey = `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`
	const emptyName = "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"
	env.run(t, []itemCase{
		{name: "get name key", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: nameKey},
		{name: "get empty name", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "get name key before bad key", op: "GetItem", body: `{"TableName":"ths","Key":{"zz":{"S":"a"}},"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: nameKey},
		{name: "get empty name before empty projection", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "get empty name before undefined name", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"#b","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "put value key", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"attribute_exists(a)","ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "put value key before syntax", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"a = = :v","ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "update name key before value key", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v","ExpressionAttributeNames":{"x":"a"},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: nameKey},
		{name: "update value key before empty name", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v","ExpressionAttributeNames":{"#a":""},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "delete empty name", op: "DeleteItem", body: `{"TableName":"ths",` + k + `,"ConditionExpression":"attribute_exists(#a)","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		// The rules about which maps may appear at all come first.
		{name: "empty names map first", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"a = :v","ExpressionAttributeNames":{},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeNames must not be empty"},
		{name: "names without expression first", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: "ExpressionAttributeNames can only be specified when using expressions"},
		{name: "update size", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v` + strings.Repeat(" ", 4097-len("SET a = :v")) + `","ExpressionAttributeValues":{":v":{"N":"1"}}}`,
			errType: vErr, errMsg: "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"},
	})
}

// TestLegacyExpectedRules: ConditionalOperator needs two or more Expected
// entries; AttributeValueList needs a ComparisonOperator (DynamoDB Local).
func TestLegacyExpectedRules(t *testing.T) {
	env := newItemsEnv(t)
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "OR on one", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"OR","Expected":{"n":{"ComparisonOperator":"NULL"}}}`,
			errType: vErr, errMsg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{name: "AND on one", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"AND","Expected":{"n":{"Exists":false}}}`,
			errType: vErr, errMsg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{name: "OR on two", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"OR","Expected":{"n":{"Exists":false},"m":{"Exists":false}}}`},
		{name: "list without operator", op: "PutItem", body: `{"TableName":"ths",` + it + `,"Expected":{"n":{"AttributeValueList":[{"N":"1"}]}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: n"},
	})
}
