package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// The import checked against DynamoDB Local itself (.ci/ddblocal-import
// runs it): DynamoDB Local started with -dbPath DDBLOCAL_DBPATH answers at
// DDBLOCAL_ENDPOINT. The test makes tables there through the AWS SDK
// (a GSI, an LSI, TTL, a stream, 1,000 items with numbers, binary and
// sets; a provisioned table with a binary key in a second database),
// imports DDBLOCAL_DBPATH, starts an emulator on the result, and compares
// what both serve: every item (Scan), every index (Scan and Query), and
// every setting (DescribeTable, DescribeTimeToLive). DynamoDB Local's
// files must come out of the import unchanged.
const (
	envDDBLocalEndpoint = "DDBLOCAL_ENDPOINT"
	envDDBLocalDBPath   = "DDBLOCAL_DBPATH"
)

// oracleItems is the size of Orders.
const oracleItems = 1000

func TestImportMatchesDynamoDBLocal(t *testing.T) {
	endpoint, dir := os.Getenv(envDDBLocalEndpoint), os.Getenv(envDDBLocalDBPath)
	if endpoint == "" || dir == "" {
		t.Skip("needs DynamoDB Local with -dbPath: " + envDDBLocalEndpoint + " and " + envDDBLocalDBPath + " (.ci/ddblocal-import sets them)")
	}
	ctx := context.Background()
	orders := sdk(endpoint, "importer", "ap-northeast-1")
	blobs := sdk(endpoint, "other", "us-east-1")
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	makeOrders(ctx, t, orders, rand.New(rand.NewPCG(seed, 1)))
	makeBlobs(ctx, t, blobs, rand.New(rand.NewPCG(seed, 2)))

	before := hashFiles(t, dir)
	out := filepath.Join(t.TempDir(), "data")
	var log testWriter
	require.NoError(t, run([]string{"-from", dir, "-dbPath", out}, &log, &log))
	t.Logf("import:\n%s", log.b)
	require.Equal(t, before, hashFiles(t, dir), "the import changed DynamoDB Local's files")

	emu, err := emulator.New(emulator.Options{DataDir: out})
	require.NoError(t, err)
	t.Cleanup(func() { emu.Close() })
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(srv.Close)

	type check struct {
		table   string
		ddbl    *dynamodb.Client
		emu     *dynamodb.Client
		queries []*dynamodb.QueryInput
	}
	checks := []check{
		{"Orders", orders, sdk(srv.URL, "importer", "ap-northeast-1"), orderQueries()},
		{"Blobs", blobs, sdk(srv.URL, "other", "us-east-1"), nil},
	}
	for _, c := range checks {
		t.Run(c.table, func(t *testing.T) {
			want, got := describeTable(ctx, t, c.ddbl, c.table), describeTable(ctx, t, c.emu, c.table)
			require.Equal(t, want, got, "settings")
			indexes := []string{""}
			for name := range want.indexes {
				indexes = append(indexes, name)
			}
			sort.Strings(indexes)
			for _, ix := range indexes {
				w, g := scanAll(ctx, t, c.ddbl, c.table, ix), scanAll(ctx, t, c.emu, c.table, ix)
				require.Equal(t, len(w), len(g), "Scan %s %q: item count", c.table, ix)
				require.Equal(t, w, g, "Scan %s %q", c.table, ix)
				t.Logf("Scan %s index %q: %d items equal", c.table, ix, len(g))
			}
			for _, q := range c.queries {
				w, g := query(ctx, t, c.ddbl, q), query(ctx, t, c.emu, q)
				require.NotEmpty(t, w)
				require.Equal(t, w, g, "Query %s %s %v", c.table, aws.ToString(q.IndexName), q.ExpressionAttributeValues)
				t.Logf("Query %s index %s: %d items equal, in the same order", c.table, aws.ToString(q.IndexName), len(g))
			}
		})
	}
}

// testWriter collects the command's output.
type testWriter struct{ b []byte }

func (w *testWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func sdk(endpoint, key, region string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		BaseEndpoint: aws.String(endpoint),
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(key, "secret", ""),
	})
}

// makeOrders makes Orders in DynamoDB Local: pay per request, a GSI
// (status, amount) with every attribute, an LSI (pk, created) with one,
// TTL on expires, a NEW_AND_OLD_IMAGES stream, 1,000 items.
func makeOrders(ctx context.Context, t *testing.T, c *dynamodb.Client, rng *rand.Rand) {
	s, n, b := types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr("pk", s), attr("sk", n), attr("status", s), attr("amount", n), attr("created", s), attr("blob", b)},
		KeySchema:            keys("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("byStatus"), KeySchema: keys("status", "amount"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("byBlob"), KeySchema: keys("blob", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("byCreated"), KeySchema: keys("pk", "created"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"amount"}}},
		},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	require.NoError(t, err)
	_, err = c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("Orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("expires")}})
	require.NoError(t, err)
	statuses := []string{"NEW", "PAID", "SHIPPED", "CANCELLED"}
	var batch []types.WriteRequest
	for i := range oracleItems {
		item := map[string]types.AttributeValue{
			"pk":      &types.AttributeValueMemberS{Value: fmt.Sprintf("TENANT#%02d", i%20)},
			"sk":      &types.AttributeValueMemberN{Value: number(rng, i)},
			"created": &types.AttributeValueMemberS{Value: fmt.Sprintf("2026-11-%02dT%05d", 1+i%28, i)},
			"expires": &types.AttributeValueMemberN{Value: strconv.Itoa(4102444800 + i)}, // 2100: never expired
			"payload": &types.AttributeValueMemberB{Value: randomBytes(rng, 1+rng.IntN(200))},
			"tags":    &types.AttributeValueMemberSS{Value: []string{"a", "b" + strconv.Itoa(i%3)}},
			"scores":  &types.AttributeValueMemberNS{Value: []string{"1", "-2.5", number(rng, i+1)}},
			"chunks":  &types.AttributeValueMemberBS{Value: [][]byte{{0}, {0xff, byte(i)}, randomBytes(rng, 3)}},
			"detail": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{
					&types.AttributeValueMemberN{Value: "0.000000000000000000000000000000000001"},
					&types.AttributeValueMemberBOOL{Value: i%2 == 0},
					&types.AttributeValueMemberNULL{Value: true},
				}},
				"note": &types.AttributeValueMemberS{Value: "注文 " + strconv.Itoa(i)},
			}},
		}
		if i%10 != 0 { // a sparse GSI: every tenth item has no status
			item["status"] = &types.AttributeValueMemberS{Value: statuses[i%len(statuses)]}
			item["amount"] = &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.%02d", i*7, i%100)}
		}
		if i%50 == 0 {
			item["blob"] = &types.AttributeValueMemberB{Value: []byte{byte(i / 50), 0, 1}}
		}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		if len(batch) == 25 {
			writeBatch(ctx, t, c, "Orders", batch)
			batch = batch[:0]
		}
	}
	writeBatch(ctx, t, c, "Orders", batch)
}

// makeBlobs makes Blobs in a second database: provisioned 5/7, a binary
// key, a GSI with throughput of its own, deletion protection, a
// KEYS_ONLY stream, 60 items, one of 300 kB.
func makeBlobs(ctx context.Context, t *testing.T, c *dynamodb.Client, rng *rand.Rand) {
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:             aws.String("Blobs"),
		AttributeDefinitions:  []types.AttributeDefinition{attr("id", types.ScalarAttributeTypeB), attr("kind", types.ScalarAttributeTypeN)},
		KeySchema:             keys("id", ""),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(7)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byKind"), KeySchema: keys("kind", ""),
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(3)}}},
		DeletionProtectionEnabled: aws.Bool(true),
		StreamSpecification:       &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	require.NoError(t, err)
	for i := range 60 {
		size := 1 + rng.IntN(64)
		if i == 0 {
			size = 300 << 10
		}
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Blobs"), Item: map[string]types.AttributeValue{
			"id":   &types.AttributeValueMemberB{Value: append([]byte{byte(i)}, randomBytes(rng, 8)...)},
			"kind": &types.AttributeValueMemberN{Value: strconv.Itoa(i % 4)},
			"data": &types.AttributeValueMemberB{Value: randomBytes(rng, size)},
		}})
		require.NoError(t, err)
	}
}

// number is a DynamoDB number of every shape: integers, decimals,
// negatives, 38 digits, exponents; unique for a unique i.
func number(rng *rand.Rand, i int) string {
	switch i % 5 {
	case 0:
		return strconv.Itoa(i)
	case 1:
		return fmt.Sprintf("-%d.%03d", i, rng.IntN(1000))
	case 2:
		return fmt.Sprintf("%d123456789012345678901234567890.1234", i)
	case 3:
		return fmt.Sprintf("%de-20", i)
	}
	return fmt.Sprintf("0.%06d00", i)
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

func attr(name string, typ types.ScalarAttributeType) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ}
}

func keys(hash, rng string) []types.KeySchemaElement {
	k := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		k = append(k, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return k
}

func writeBatch(ctx context.Context, t *testing.T, c *dynamodb.Client, table string, reqs []types.WriteRequest) {
	for len(reqs) > 0 {
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
		require.NoError(t, err)
		reqs = out.UnprocessedItems[table]
	}
}

// orderQueries queries each status of the GSI, and the LSI of a few
// tenants, newest first.
func orderQueries() []*dynamodb.QueryInput {
	var qs []*dynamodb.QueryInput
	for _, s := range []string{"NEW", "PAID", "SHIPPED", "CANCELLED"} {
		qs = append(qs, &dynamodb.QueryInput{TableName: aws.String("Orders"), IndexName: aws.String("byStatus"),
			KeyConditionExpression:    aws.String("#s = :s AND amount > :a"),
			ExpressionAttributeNames:  map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: s}, ":a": &types.AttributeValueMemberN{Value: "100"}}})
	}
	for _, tenant := range []string{"TENANT#00", "TENANT#07", "TENANT#19"} {
		qs = append(qs, &dynamodb.QueryInput{TableName: aws.String("Orders"), IndexName: aws.String("byCreated"), ScanIndexForward: aws.Bool(false),
			KeyConditionExpression:    aws.String("pk = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: tenant}}})
		qs = append(qs, &dynamodb.QueryInput{TableName: aws.String("Orders"), ConsistentRead: aws.Bool(true),
			KeyConditionExpression:    aws.String("pk = :p AND sk BETWEEN :lo AND :hi"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: tenant}, ":lo": &types.AttributeValueMemberN{Value: "-500"}, ":hi": &types.AttributeValueMemberN{Value: "1e40"}}})
	}
	return qs
}

// settings is what is compared of a table's description.
type settings struct {
	attrs              []string
	keySchema          []string
	billing            string
	rcu, wcu           int64
	indexes            map[string]string // name: keys, projection, throughput
	stream             string
	deletionProtection bool
	ttl                string
}

func describeTable(ctx context.Context, t *testing.T, c *dynamodb.Client, table string) settings {
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	tb := d.Table
	s := settings{indexes: map[string]string{}, deletionProtection: aws.ToBool(tb.DeletionProtectionEnabled)}
	for _, a := range tb.AttributeDefinitions {
		s.attrs = append(s.attrs, aws.ToString(a.AttributeName)+":"+string(a.AttributeType))
	}
	sort.Strings(s.attrs)
	s.keySchema = keyNames(tb.KeySchema)
	s.billing = string(types.BillingModeProvisioned)
	if tb.BillingModeSummary != nil && tb.BillingModeSummary.BillingMode != "" {
		s.billing = string(tb.BillingModeSummary.BillingMode)
	}
	if tb.ProvisionedThroughput != nil {
		s.rcu, s.wcu = aws.ToInt64(tb.ProvisionedThroughput.ReadCapacityUnits), aws.ToInt64(tb.ProvisionedThroughput.WriteCapacityUnits)
	}
	for _, g := range tb.GlobalSecondaryIndexes {
		// An on-demand GSI: AWS (and dynamoemu) describe its throughput
		// as 0/0, DynamoDB Local leaves it out; both mean none.
		var pt string
		if g.ProvisionedThroughput != nil && aws.ToInt64(g.ProvisionedThroughput.ReadCapacityUnits) > 0 {
			pt = fmt.Sprintf(" %d/%d", aws.ToInt64(g.ProvisionedThroughput.ReadCapacityUnits), aws.ToInt64(g.ProvisionedThroughput.WriteCapacityUnits))
		}
		s.indexes[aws.ToString(g.IndexName)] = fmt.Sprintf("GSI %v %s%s", keyNames(g.KeySchema), projection(g.Projection), pt)
	}
	for _, l := range tb.LocalSecondaryIndexes {
		s.indexes[aws.ToString(l.IndexName)] = fmt.Sprintf("LSI %v %s", keyNames(l.KeySchema), projection(l.Projection))
	}
	if tb.StreamSpecification != nil && aws.ToBool(tb.StreamSpecification.StreamEnabled) {
		s.stream = string(tb.StreamSpecification.StreamViewType)
	}
	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	require.NoError(t, err)
	s.ttl = string(ttl.TimeToLiveDescription.TimeToLiveStatus) + " " + aws.ToString(ttl.TimeToLiveDescription.AttributeName)
	return s
}

func keyNames(ks []types.KeySchemaElement) []string {
	var out []string
	for _, k := range ks {
		out = append(out, aws.ToString(k.AttributeName)+":"+string(k.KeyType))
	}
	return out
}

func projection(p *types.Projection) string {
	if p == nil {
		return ""
	}
	nk := slices.Clone(p.NonKeyAttributes)
	sort.Strings(nk)
	return fmt.Sprintf("%s%v", p.ProjectionType, nk)
}

// scanAll scans the table (or its index) whole and returns each item in
// canonical form (sets sorted), sorted.
func scanAll(ctx context.Context, t *testing.T, c *dynamodb.Client, table, index string) []string {
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	if index != "" {
		in.IndexName = aws.String(index)
	} else {
		in.ConsistentRead = aws.Bool(true)
	}
	var items []string
	p := dynamodb.NewScanPaginator(c, in)
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		require.NoError(t, err)
		for _, it := range out.Items {
			items = append(items, canonical(&types.AttributeValueMemberM{Value: it}))
		}
	}
	sort.Strings(items)
	return items
}

// query runs q whole and returns its items in canonical form, in order.
func query(ctx context.Context, t *testing.T, c *dynamodb.Client, q *dynamodb.QueryInput) []string {
	var items []string
	p := dynamodb.NewQueryPaginator(c, q)
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		require.NoError(t, err)
		for _, it := range out.Items {
			items = append(items, canonical(&types.AttributeValueMemberM{Value: it}))
		}
	}
	return items
}

// canonical renders v with map keys and set members sorted.
func canonical(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	case *types.AttributeValueMemberB:
		return "B" + base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberSS:
		return sortedSet("SS", v.Value, strconv.Quote)
	case *types.AttributeValueMemberNS:
		return sortedSet("NS", v.Value, func(s string) string { return s })
	case *types.AttributeValueMemberBS:
		return sortedSet("BS", v.Value, base64.StdEncoding.EncodeToString)
	case *types.AttributeValueMemberL:
		out := "["
		for _, e := range v.Value {
			out += canonical(e) + ","
		}
		return out + "]"
	case *types.AttributeValueMemberM:
		names := make([]string, 0, len(v.Value))
		for k := range v.Value {
			names = append(names, k)
		}
		sort.Strings(names)
		out := "{"
		for _, k := range names {
			out += strconv.Quote(k) + ":" + canonical(v.Value[k]) + ","
		}
		return out + "}"
	}
	return fmt.Sprintf("?%T", v)
}

func sortedSet[E any](kind string, members []E, render func(E) string) string {
	out := make([]string, len(members))
	for i, m := range members {
		out[i] = render(m)
	}
	sort.Strings(out)
	return fmt.Sprint(kind, out)
}

// hashFiles is the SHA-256 of every file in dir, by name.
func hashFiles(t *testing.T, dir string) map[string]string {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	sums := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		sums[e.Name()] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return sums
}
