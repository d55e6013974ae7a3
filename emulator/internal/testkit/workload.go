package testkit

import (
	rand "math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Random requests for the tests that run a workload (the service's lock
// order and replay tests, the facade's replay test): tables with the key
// pk, sk (both S), an LSI on l, GSIs on g and on g, n, TTL on exp; writes
// through every write path; changes of every part of a definition.

// Pick returns one of list.
func Pick[T any](r *rand.Rand, list ...T) T { return list[r.IntN(len(list))] }

// SmallKey is a key from a small space, so writers meet on items.
func SmallKey(r *rand.Rand) (pk, sk string) {
	return "p" + strconv.Itoa(r.IntN(3)), "s" + strconv.Itoa(r.IntN(6))
}

// KeyJSON is the key pk, sk as a request's Key.
func KeyJSON(pk, sk string) string {
	return `{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"}}`
}

// itemJSON is an item with key pk, sk and random other attributes: n, and
// maybe the LSI's l, the GSI's g, the TTL attribute exp (expired or not)
// and a payload that makes some items larger than 1 KB.
func itemJSON(r *rand.Rand, pk, sk string) string {
	var b strings.Builder
	b.WriteString(`{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"},"n":{"N":"` + strconv.Itoa(r.IntN(100)) + `"}`)
	if r.IntN(2) == 0 {
		b.WriteString(`,"l":{"S":"l` + strconv.Itoa(r.IntN(4)) + `"}`)
	}
	if r.IntN(2) == 0 {
		b.WriteString(`,"g":{"S":"g` + strconv.Itoa(r.IntN(4)) + `"}`)
	}
	if r.IntN(3) == 0 {
		b.WriteString(`,"exp":{"N":"` + strconv.FormatInt(TTLValue(r), 10) + `"}`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"big":{"S":"` + strings.Repeat("x", 1500) + `"}`)
	}
	if n := r.IntN(8); n < 5 {
		b.WriteString(`,"v":` + VectorJSON(r, 3+n/4)) // sometimes 4 elements: a write a vector index refuses
	}
	b.WriteString(`}`)
	return b.String()
}

// VectorJSON is a list of dims small numbers: a vector attribute value.
func VectorJSON(r *rand.Rand, dims int) string {
	var b strings.Builder
	b.WriteString(`{"L":[`)
	for i := range dims {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"N":"` + strconv.Itoa(r.IntN(7)-3) + `"}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// vectorIndexJSON is a vector index on v (3 dimensions), by g or not.
func vectorIndexJSON(r *rand.Rand, name string) string {
	schema := ""
	if r.IntN(2) == 0 {
		schema = `,"SearchSchema":[{"AttributeName":"g","SearchSchemaElementType":"HASH"}]`
	}
	return `{"IndexName":"` + name + `","VectorAttribute":{"AttributeName":"v"},"Dimensions":3,` +
		`"DistanceFunction":"` + Pick(r, "COSINE", "EUCLIDEAN", "DOT_PRODUCT") + `",` +
		`"Projection":{"ProjectionType":"` + Pick(r, "ALL", "KEYS_ONLY") + `"}` + schema + `}`
}

// TTLValue is a TTL attribute value: expired a minute ago, or in a day.
func TTLValue(r *rand.Rand) int64 {
	if r.IntN(2) == 0 {
		return time.Now().Add(-time.Minute).Unix()
	}
	return time.Now().Add(24 * time.Hour).Unix()
}

// writeOptions are the Return* members that make a write read the
// definition inside its storage write: index capacity, item collection
// metrics, old images.
func writeOptions(r *rand.Rand) string {
	return `,"ReturnConsumedCapacity":"` + Pick(r, "NONE", "TOTAL", "INDEXES") +
		`","ReturnItemCollectionMetrics":"` + Pick(r, "NONE", "SIZE") + `"`
}

// WriteErrors are the errors a write may meet.
var WriteErrors = []string{"ResourceNotFoundException", "ConditionalCheckFailedException", "TransactionCanceledException", "DuplicateItemException"}

// RandomWrite returns a random write request to one of tables (each with
// the key pk, sk, both S): its operation, body and the error types
// allowed. Every write path: PutItem, UpdateItem, DeleteItem,
// BatchWriteItem, TransactWriteItems, and PartiQL through
// ExecuteStatement, ExecuteTransaction and BatchExecuteStatement.
func RandomWrite(r *rand.Rand, tables []string) (string, string, []string) {
	table := Pick(r, tables...)
	pk, sk := SmallKey(r)
	switch r.IntN(9) {
	case 0:
		cond := ""
		if r.IntN(3) == 0 {
			cond = `,"ConditionExpression":"attribute_not_exists(pk) OR n < :big","ExpressionAttributeValues":{":big":{"N":"1000"}}`
		}
		return "PutItem", `{"TableName":"` + table + `","Item":` + itemJSON(r, pk, sk) +
			`,"ReturnValues":"` + Pick(r, "NONE", "ALL_OLD") + `"` + cond + writeOptions(r) + `}`, WriteErrors
	case 1:
		upd := Pick(r,
			`"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}`,
			`"UpdateExpression":"SET g = :g, l = :l ADD n :one","ExpressionAttributeValues":{":g":{"S":"g1"},":l":{"S":"l2"},":one":{"N":"1"}}`,
			`"UpdateExpression":"SET exp = :e ADD n :one REMOVE g","ExpressionAttributeValues":{":e":{"N":"`+strconv.FormatInt(TTLValue(r), 10)+`"},":one":{"N":"1"}}`,
			`"UpdateExpression":"REMOVE l SET n = if_not_exists(n, :z) + :one","ExpressionAttributeValues":{":z":{"N":"0"},":one":{"N":"1"}}`)
		return "UpdateItem", `{"TableName":"` + table + `","Key":` + KeyJSON(pk, sk) + `,` + upd +
			`,"ReturnValues":"` + Pick(r, "NONE", "ALL_NEW", "UPDATED_OLD") + `"` + writeOptions(r) + `}`, WriteErrors
	case 2:
		return "DeleteItem", `{"TableName":"` + table + `","Key":` + KeyJSON(pk, sk) +
			`,"ReturnValues":"` + Pick(r, "NONE", "ALL_OLD") + `"` + writeOptions(r) + `}`, WriteErrors
	case 3:
		return "BatchWriteItem", `{"RequestItems":{` + batchWrites(r, tables) + `}` + writeOptions(r) + `}`, WriteErrors
	case 4:
		token := ""
		if r.IntN(4) == 0 {
			token = `,"ClientRequestToken":"tok-` + strconv.Itoa(r.IntN(1000)) + `"`
		}
		// A replayed token with another request is IdempotentParameterMismatch.
		return "TransactWriteItems", `{"TransactItems":[` + transactItems(r, tables) + `]` + token + writeOptions(r) + `}`,
			append(slices.Clone(WriteErrors), "IdempotentParameterMismatchException")
	case 5:
		return "ExecuteStatement", `{"Statement":` + strconv.Quote(partiQLWrite(r, table, pk, sk)) + `}`, WriteErrors
	case 6:
		var stmts []string
		for _, k := range distinctKeys(r, 1+r.IntN(3), tables) {
			stmts = append(stmts, `{"Statement":`+strconv.Quote(partiQLWrite(r, k.table, k.pk, k.sk))+`}`)
		}
		return "ExecuteTransaction", `{"TransactStatements":[` + strings.Join(stmts, ",") + `]}`, WriteErrors
	case 7:
		var stmts []string
		for _, k := range distinctKeys(r, 1+r.IntN(3), tables) {
			stmts = append(stmts, `{"Statement":`+strconv.Quote(partiQLWrite(r, k.table, k.pk, k.sk))+`}`)
		}
		return "BatchExecuteStatement", `{"Statements":[` + strings.Join(stmts, ",") + `]}`, WriteErrors
	default:
		return "UpdateItem", `{"TableName":"` + table + `","Key":` + KeyJSON(pk, sk) +
			`,"UpdateExpression":"ADD n :one","ConditionExpression":"attribute_exists(pk)","ExpressionAttributeValues":{":one":{"N":"1"}}` +
			writeOptions(r) + `}`, WriteErrors
	}
}

// tableKey is one item of one table.
type tableKey struct{ table, pk, sk string }

// distinctKeys returns n distinct items across tables (a transaction
// may name an item once).
func distinctKeys(r *rand.Rand, n int, tables []string) []tableKey {
	var out []tableKey
	for len(out) < n {
		pk, sk := SmallKey(r)
		k := tableKey{Pick(r, tables...), pk, sk}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// batchWrites is a BatchWriteItem's RequestItems members: puts and
// deletes of distinct items, grouped by table.
func batchWrites(r *rand.Rand, tables []string) string {
	byTable := map[string][]string{}
	for _, k := range distinctKeys(r, 1+r.IntN(4), tables) {
		req := `{"DeleteRequest":{"Key":` + KeyJSON(k.pk, k.sk) + `}}`
		if r.IntN(3) > 0 {
			req = `{"PutRequest":{"Item":` + itemJSON(r, k.pk, k.sk) + `}}`
		}
		byTable[k.table] = append(byTable[k.table], req)
	}
	var parts []string
	for _, table := range tables {
		if reqs := byTable[table]; len(reqs) > 0 {
			parts = append(parts, `"`+table+`":[`+strings.Join(reqs, ",")+`]`)
		}
	}
	return strings.Join(parts, ",")
}

// transactItems is a TransactWriteItems's TransactItems: puts, updates,
// deletes and condition checks of distinct items.
func transactItems(r *rand.Rand, tables []string) string {
	var acts []string
	for _, k := range distinctKeys(r, 1+r.IntN(4), tables) {
		key := `"TableName":"` + k.table + `","Key":` + KeyJSON(k.pk, k.sk)
		switch r.IntN(4) {
		case 0:
			acts = append(acts, `{"Put":{"TableName":"`+k.table+`","Item":`+itemJSON(r, k.pk, k.sk)+`}}`)
		case 1:
			acts = append(acts, `{"Update":{`+key+`,"UpdateExpression":"ADD n :one SET g = :g",
				"ExpressionAttributeValues":{":one":{"N":"1"},":g":{"S":"g2"}}}}`)
		case 2:
			acts = append(acts, `{"Delete":{`+key+`}}`)
		default:
			acts = append(acts, `{"ConditionCheck":{`+key+`,"ConditionExpression":"attribute_not_exists(nope)"}}`)
		}
	}
	return strings.Join(acts, ",")
}

// partiQLWrite is a PartiQL INSERT, UPDATE or DELETE of one item. Every
// write leaves an item with n, so UPDATE's n + 1 always has an operand.
func partiQLWrite(r *rand.Rand, table, pk, sk string) string {
	where := ` WHERE pk = '` + pk + `' AND sk = '` + sk + `'`
	switch r.IntN(3) {
	case 0:
		return `INSERT INTO ` + table + ` VALUE {'pk': '` + pk + `', 'sk': '` + sk + `', 'n': 1, 'g': 'g3', 'l': 'l3'}`
	case 1:
		return `UPDATE ` + table + ` SET n = n + 1 SET g = 'g0'` + where
	}
	return `DELETE FROM ` + table + where
}

// RandomCreateTable is a random CreateTable request of table name: key
// pk, sk (S), an LSI on l, a GSI on g, n (two partition key attributes),
// maybe a stream, provisioned or on-demand billing, tags, SSE, a table
// class.
func RandomCreateTable(r *rand.Rand, name string) string {
	var b strings.Builder
	b.WriteString(`{"TableName":"` + name + `","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
		{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},
		{"AttributeName":"n","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`)
	provisioned := r.IntN(2) == 0
	tp := `"ProvisionedThroughput":{"ReadCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `,"WriteCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `}`
	if provisioned {
		b.WriteString(`,` + tp)
	} else {
		b.WriteString(`,"BillingMode":"PAY_PER_REQUEST"`)
	}
	gsiTP := ""
	if provisioned {
		gsiTP = `,` + tp
	}
	// Every attribute definition must be used by a key schema.
	b.WriteString(`,"LocalSecondaryIndexes":[{"IndexName":"by-l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
		{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"` + Pick(r, "ALL", "KEYS_ONLY") + `"}}]`)
	b.WriteString(`,"GlobalSecondaryIndexes":[{"IndexName":"by-gn","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},
		{"AttributeName":"n","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["exp"]}` + gsiTP + `}]`)
	if !provisioned && r.IntN(2) == 0 {
		b.WriteString(`,"VectorIndexes":[` + vectorIndexJSON(r, "by-v") + `]`)
	}
	if r.IntN(2) == 0 {
		b.WriteString(`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + Pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY", "OLD_IMAGE") + `"}`)
	}
	if r.IntN(2) == 0 {
		b.WriteString(`,"Tags":[{"Key":"team","Value":"t` + strconv.Itoa(r.IntN(3)) + `"}]`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"SSESpecification":{"Enabled":true,"SSEType":"KMS"}`)
	}
	if r.IntN(4) == 0 {
		b.WriteString(`,"TableClass":"STANDARD_INFREQUENT_ACCESS"`)
	}
	b.WriteString(`}`)
	return b.String()
}

// RandomCatalogChange returns a random change of one of tables, in a
// namespace of region (for ARNs): CreateTable, DeleteTable, UpdateTable
// (billing, throughput, GSI and vector index create and delete, stream,
// SSE, class, deletion protection), UpdateTimeToLive, TagResource, UntagResource.
func RandomCatalogChange(r *rand.Rand, tables []string, region string) (string, string) {
	table := Pick(r, tables...)
	arn := "arn:aws:dynamodb:" + region + ":000000000000:table/" + table
	update := func(members string) (string, string) {
		return "UpdateTable", `{"TableName":"` + table + `",` + members + `}`
	}
	tp := `"ProvisionedThroughput":{"ReadCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `,"WriteCapacityUnits":` + strconv.Itoa(1+r.IntN(9)) + `}`
	switch r.IntN(18) {
	case 0, 1, 2:
		return "CreateTable", RandomCreateTable(r, table)
	case 3:
		return "DeleteTable", `{"TableName":"` + table + `"}`
	case 4:
		gsiTP := ""
		if r.IntN(2) == 0 {
			gsiTP = "," + tp
		}
		return update(`"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"` + Pick(r, "ALL", "KEYS_ONLY") + `"}` + gsiTP + `}}]`)
	case 5:
		return update(`"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"` + Pick(r, "by-g", "by-gn") + `"}}]`)
	case 6:
		return update(`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + Pick(r, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY") + `"}`)
	case 7:
		return update(`"StreamSpecification":{"StreamEnabled":false}`)
	case 8:
		return "UpdateTimeToLive", `{"TableName":"` + table + `","TimeToLiveSpecification":{"Enabled":` + Pick(r, "true", "false") + `,"AttributeName":"exp"}}`
	case 9:
		tags := `{"Key":"env","Value":"v` + strconv.Itoa(r.IntN(3)) + `"}`
		if r.IntN(2) == 0 {
			tags += `,{"Key":"dynamoemu:conventions","Value":"data"},{"Key":"dynamoemu:conventions-mode","Value":"warn"}`
		}
		return "TagResource", `{"ResourceArn":"` + arn + `","Tags":[` + tags + `]}`
	case 10:
		return "UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":["env","team","dynamoemu:conventions","dynamoemu:conventions-mode"]}`
	case 11:
		return update(`"BillingMode":"PAY_PER_REQUEST"`)
	case 12:
		return update(`"BillingMode":"PROVISIONED",` + tp)
	case 13:
		return update(tp)
	case 16:
		return update(`"VectorIndexUpdates":[{"Create":` + vectorIndexJSON(r, Pick(r, "by-v", "by-v2")) + `}]`)
	case 17:
		return update(`"VectorIndexUpdates":[{"Delete":{"IndexName":"` + Pick(r, "by-v", "by-v2") + `"}}]`)
	case 14:
		return update(Pick(r, `"SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"k1"}`,
			`"TableClass":"`+Pick(r, "STANDARD", "STANDARD_INFREQUENT_ACCESS")+`"`))
	}
	return update(`"DeletionProtectionEnabled":` + Pick(r, "true", "false"))
}
