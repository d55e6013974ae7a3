package emulatortest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

type avs = map[string]types.AttributeValue

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// seedOrders creates table "orders" (pk, sk; GSI byStatus on status)
// with n items and a stream, through client.
func seedOrders(t *testing.T, client *dynamodb.Client, n int) {
	t.Helper()
	ctx := context.Background()
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		BillingMode:         types.BillingModePayPerRequest,
	})
	require.NoError(t, err)
	for i := range n {
		_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{
			"pk": str(fmt.Sprintf("TENANT#acme#ORDER#%04d", i/10)), "sk": str(fmt.Sprintf("%02d", i%10)), "status": str("NEW"),
		}})
		require.NoError(t, err)
	}
}

func countItems(t *testing.T, client *dynamodb.Client) int32 {
	t.Helper()
	out, err := client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("orders"), Select: types.SelectCount})
	require.NoError(t, err)
	return out.Count
}

func countStatus(t *testing.T, client *dynamodb.Client, status string) int32 {
	t.Helper()
	out, err := client.Query(context.Background(), &dynamodb.QueryInput{
		TableName: aws.String("orders"), IndexName: aws.String("byStatus"), Select: types.SelectCount,
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: avs{":s": str(status)},
	})
	require.NoError(t, err)
	return out.Count
}

// TestForkIsolation: a branch holds the base's items and index entries
// as they were at the fork; writes on either side, and in a second
// branch, are seen by no other.
func TestForkIsolation(t *testing.T) {
	ctx := context.Background()
	e, base := emulatortest.NewWith(t, emulator.Options{})
	seedOrders(t, base, 50)

	a := emulatortest.Fork(t, e, base)
	b := emulatortest.Fork(t, e, base)
	require.Equal(t, int32(50), countItems(t, a))
	require.Equal(t, int32(50), countStatus(t, a, "NEW"))

	// A write in a: an update that moves an item between index keys, a
	// delete and a new item.
	_, err := a.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("orders"),
		Key:              avs{"pk": str("TENANT#acme#ORDER#0000"), "sk": str("00")},
		UpdateExpression: aws.String("SET #s = :p"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: avs{":p": str("PAID")}})
	require.NoError(t, err)
	_, err = a.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: avs{"pk": str("TENANT#acme#ORDER#0001"), "sk": str("00")}})
	require.NoError(t, err)
	_, err = a.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("only-a"), "sk": str("1"), "status": str("PAID")}})
	require.NoError(t, err)
	require.Equal(t, int32(50), countItems(t, a))
	require.Equal(t, int32(2), countStatus(t, a, "PAID"))

	// The base and b see none of it.
	for _, c := range []*dynamodb.Client{base, b} {
		require.Equal(t, int32(50), countItems(t, c))
		require.Equal(t, int32(0), countStatus(t, c, "PAID"))
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: avs{"pk": str("TENANT#acme#ORDER#0001"), "sk": str("00")}})
		require.NoError(t, err)
		require.NotNil(t, got.Item)
	}

	// A write to the base after the fork is not in the branches.
	_, err = base.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("only-base"), "sk": str("1"), "status": str("NEW")}})
	require.NoError(t, err)
	require.Equal(t, int32(51), countItems(t, base))
	require.Equal(t, int32(50), countItems(t, a))
	require.Equal(t, int32(50), countItems(t, b))

	// A table made in a branch is the branch's alone.
	_, err = b.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("scratch"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest})
	require.NoError(t, err)
	for c, want := range map[*dynamodb.Client][]string{base: {"orders"}, a: {"orders"}, b: {"orders", "scratch"}} {
		out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
		require.NoError(t, err)
		require.Equal(t, want, out.TableNames)
	}
}

// TestForkStreams: a branch's stream records are its own writes, from
// the fork on.
func TestForkStreams(t *testing.T) {
	ctx := context.Background()
	e, base := emulatortest.NewWith(t, emulator.Options{})
	seedOrders(t, base, 3)
	br := emulatortest.Fork(t, e, base)
	_, err := br.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("new"), "sk": str("1"), "status": str("NEW")}})
	require.NoError(t, err)

	records := func(c *dynamodb.Client) []string {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
		require.NoError(t, err)
		opts := c.Options()
		sc := dynamodbstreams.New(dynamodbstreams.Options{Region: opts.Region, BaseEndpoint: opts.BaseEndpoint, Credentials: opts.Credentials, HTTPClient: opts.HTTPClient})
		desc, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
		require.NoError(t, err)
		var keys []string
		for _, sh := range desc.StreamDescription.Shards {
			it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn, ShardId: sh.ShardId, ShardIteratorType: "TRIM_HORIZON"})
			require.NoError(t, err)
			out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
			require.NoError(t, err)
			for _, r := range out.Records {
				keys = append(keys, fmt.Sprint(r.Dynamodb.Keys["pk"]))
			}
		}
		return keys
	}
	got := records(br)
	require.Len(t, got, 1, "the branch's stream holds its own write only")
	require.Contains(t, got[0], "new")
	require.Len(t, records(base), 3, "the base's stream holds the seed's writes only")
}

// TestForkConcurrent: tests forking one base at once, each writing to
// its branch, see only their own writes; the base is unchanged.
func TestForkConcurrent(t *testing.T) {
	ctx := context.Background()
	e, base := emulatortest.NewWith(t, emulator.Options{})
	seedOrders(t, base, 40)
	ns := baseNamespace(t, base)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 5 {
				name := fmt.Sprintf("w%dr%d", w, round)
				if _, err := e.Branches().Fork(ns, name); !assertNoError(t, err) {
					return
				}
				c := dynamodb.New(base.Options(), func(o *dynamodb.Options) {
					o.Credentials = credentials.NewStaticCredentialsProvider(name, "secret", "")
				})
				for i := range 10 {
					_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{
						"pk": str(name), "sk": str(fmt.Sprint(i)), "status": str(name)}})
					if !assertNoError(t, err) {
						return
					}
				}
				out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders"), Select: types.SelectCount})
				if assertNoError(t, err) && out.Count != 50 {
					t.Errorf("branch %s: %d items, want 50", name, out.Count)
				}
				assertNoError(t, e.Branches().Drop(name))
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int32(40), countItems(t, base))
	require.Empty(t, e.Branches().List())
}

func assertNoError(t *testing.T, err error) bool {
	t.Helper()
	if err != nil {
		t.Error(err)
		return false
	}
	return true
}

func baseNamespace(t *testing.T, base *dynamodb.Client) string {
	cred, err := base.Options().Credentials.Retrieve(context.Background())
	require.NoError(t, err)
	return cred.AccessKeyID + "/" + base.Options().Region
}

// TestForkErrors: Branches.Fork and Drop refuse what they cannot do, with
// the errors callers test for.
func TestForkErrors(t *testing.T) {
	e, base := emulatortest.NewWith(t, emulator.Options{})
	seedOrders(t, base, 1)
	ns := baseNamespace(t, base)
	_, err := e.Branches().Fork("AKIDnone/us-east-1", "x1")
	require.ErrorIs(t, err, emulator.ErrNoNamespace)
	_, err = e.Branches().Fork(ns, "not a name")
	require.ErrorIs(t, err, emulator.ErrBranchName)
	_, err = e.Branches().Fork(ns, "x1")
	require.NoError(t, err)
	_, err = e.Branches().Fork(ns, "x1")
	require.ErrorIs(t, err, emulator.ErrBranchExists)
	_, err = e.Branches().Fork(ns, strings.Split(ns, "/")[0]) // the base's own access key: its namespace holds tables
	require.ErrorIs(t, err, emulator.ErrBranchExists)
	require.Equal(t, []emulator.Branch{{Name: "x1", Namespace: "x1/us-east-1", Base: ns, AccessKey: "x1"}}, e.Branches().List())
	require.ErrorIs(t, e.Branches().Drop("x2"), emulator.ErrNoBranch)
	require.NoError(t, e.Branches().Drop("x1"))
	require.ErrorIs(t, e.Branches().Drop("x1"), emulator.ErrNoBranch)
}

// TestForkSharedDB: with one shared namespace every access key reaches
// it, so a branch is reached by the X-Dynamoemu-Branch header alone; with
// a DataDir too there are no branches.
func TestForkSharedDB(t *testing.T) {
	e, base := emulatortest.NewWith(t, emulator.Options{SharedDB: true})
	seedOrders(t, base, 5)
	require.Equal(t, "shared", e.Branches().NamespaceID("anyone", "eu-west-1"))
	a := emulatortest.Fork(t, e, base)
	b := emulatortest.Fork(t, e, base)
	_, err := a.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("a"), "sk": str("1"), "status": str("PAID")}})
	require.NoError(t, err)
	require.Equal(t, int32(6), countItems(t, a))
	require.Equal(t, int32(1), countStatus(t, a, "PAID"))
	require.Equal(t, int32(5), countItems(t, b))
	require.Equal(t, int32(5), countItems(t, base))
	other := dynamodb.New(base.Options(), func(o *dynamodb.Options) { // any key, any region: the shared namespace
		o.Credentials, o.Region = credentials.NewStaticCredentialsProvider("someoneElse", "x", ""), "eu-west-1"
	})
	require.Equal(t, int32(5), countItems(t, other))
	url, es, sbase := emulatortest.NewServerWith(t, emulator.Options{SharedDB: true})
	seedOrders(t, sbase, 2)
	_, err = es.Branches().Fork("shared", "listed")
	require.NoError(t, err)
	res, err := http.Get(url + "/dynamoemu/namespaces")
	require.NoError(t, err)
	defer res.Body.Close()
	var listed struct{ Namespaces []map[string]any }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&listed))
	require.Equal(t, []map[string]any{
		{"namespace": "shared", "tables": float64(1), "items": float64(2)},
		{"namespace": "shared/listed", "tables": float64(1), "items": float64(2)},
	}, listed.Namespaces, "a branch of the shared namespace is listed with no access key")
	for _, br := range e.Branches().List() {
		require.True(t, strings.HasPrefix(br.Namespace, "shared/"), br.Namespace)
		require.Equal(t, "shared", br.Base)
		require.Empty(t, br.AccessKey)
	}

	e2, base2 := emulatortest.NewWith(t, emulator.Options{SharedDB: true, DataDir: t.TempDir()})
	seedOrders(t, base2, 1)
	_, err = e2.Branches().Fork("shared", "b1")
	require.ErrorIs(t, err, emulator.ErrSharedDB)
}

// TestForkHeader: over HTTP (the server's connection loop and net/http),
// the X-Dynamoemu-Branch header selects a branch whatever the client's
// key; a header naming no branch is a ValidationException.
func TestForkHeader(t *testing.T) {
	ctx := context.Background()
	_, e, base := emulatortest.NewServerWith(t, emulator.Options{})
	seedOrders(t, base, 4)
	ns := baseNamespace(t, base)
	for _, name := range []string{"h1", "h2"} {
		_, err := e.Branches().Fork(ns, name)
		require.NoError(t, err)
	}
	h1 := dynamodb.New(base.Options(), emulatortest.BranchHeader("h1"))
	h2 := dynamodb.New(base.Options(), emulatortest.BranchHeader("h2"))
	_, err := h1.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("h1"), "sk": str("1"), "status": str("NEW")}})
	require.NoError(t, err)
	require.Equal(t, int32(5), countItems(t, h1))
	require.Equal(t, int32(4), countItems(t, h2))
	require.Equal(t, int32(4), countItems(t, base))
	// The branch's own key reaches the same namespace.
	byKey := dynamodb.New(base.Options(), func(o *dynamodb.Options) { o.Credentials = credentials.NewStaticCredentialsProvider("h1", "x", "") })
	require.Equal(t, int32(5), countItems(t, byKey))

	// net/http's path (a request the connection loop leaves to it: chunked).
	chunked := dynamodb.New(base.Options(), emulatortest.BranchHeader("h1"), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: chunkedTransport{http.DefaultTransport}}
	})
	require.Equal(t, int32(5), countItems(t, chunked))

	require.NoError(t, e.Branches().Drop("h1"))
	_, err = h1.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders")})
	var ve *smithy.GenericAPIError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "ValidationException", ve.Code)
	require.Contains(t, ve.Message, `the X-Dynamoemu-Branch header names no branch: "h1"`)
}

// chunkedTransport sends bodies without a Content-Length.
type chunkedTransport struct{ rt http.RoundTripper }

func (c chunkedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.ContentLength = -1
	r.Header.Del("Content-Length")
	return c.rt.RoundTrip(r)
}

// TestForkHeaderCredentials: with Credentials, a key's header reaches the
// branches of its own namespace (and their branches), not another key's.
func TestForkHeaderCredentials(t *testing.T) {
	ctx := context.Background()
	url, e, _ := emulatortest.NewServerWith(t, emulator.Options{Credentials: []emulator.Credential{
		{AccessKeyID: "alice", SecretAccessKey: "secret"}, {AccessKeyID: "bob", SecretAccessKey: "secret"}}})
	client := func(key string) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{Region: emulatortest.Region, BaseEndpoint: aws.String(url),
			Credentials: credentials.NewStaticCredentialsProvider(key, "secret", ""), Retryer: emulatortest.ConnectionRetryer()})
	}
	alice, bob := client("alice"), client("bob")
	seedOrders(t, alice, 2)
	_, err := e.Branches().Fork("alice/us-east-1", "a1")
	require.NoError(t, err)
	_, err = e.Branches().Fork("a1/us-east-1", "a2") // a branch of a branch
	require.NoError(t, err)
	for _, name := range []string{"a1", "a2"} {
		require.Equal(t, int32(2), countItems(t, dynamodb.New(alice.Options(), emulatortest.BranchHeader(name))))
		_, err = dynamodb.New(bob.Options(), emulatortest.BranchHeader(name)).Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders")})
		var ve *smithy.GenericAPIError
		require.ErrorAs(t, err, &ve)
		require.Equal(t, "ValidationException", ve.Code)
		require.Contains(t, ve.Message, "which the request's access key does not reach")
	}
}

// TestForkAdminEndpoint: the branches over HTTP, as a test suite in
// another language uses them: fork, list, use, drop.
func TestForkAdminEndpoint(t *testing.T) {
	url, e, base := emulatortest.NewServerWith(t, emulator.Options{})
	seedOrders(t, base, 7)
	ns := baseNamespace(t, base)
	do := func(method, path, body string) (int, map[string]any) {
		req, err := http.NewRequest(method, url+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return res.StatusCode, out
	}
	status, out := do(http.MethodPost, adminpath.Branches, `{"base":"`+ns+`","name":"web1"}`)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, map[string]any{"name": "web1", "namespace": "web1/us-east-1", "base": ns, "accessKey": "web1"}, out)

	status, out = do(http.MethodPost, adminpath.Branches, `{"base":"`+ns+`","name":"web1"}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["message"], "the branch's namespace exists")
	status, _ = do(http.MethodPost, adminpath.Branches, `{"base":"AKIDnobody/us-east-1","name":"web2"}`)
	require.Equal(t, http.StatusBadRequest, status)

	br := dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider("web1", "secret", "")
	})
	_, err := br.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str("web"), "sk": str("1"), "status": str("NEW")}})
	require.NoError(t, err)
	require.Equal(t, int32(8), countItems(t, br))
	require.Equal(t, int32(7), countItems(t, base))

	status, out = do(http.MethodGet, adminpath.Branches, "")
	require.Equal(t, http.StatusOK, status)
	require.Len(t, out["branches"], 1)
	status, out = do(http.MethodDelete, adminpath.Branches+"/web1", "")
	require.Equal(t, http.StatusOK, status, out)
	require.Empty(t, e.Branches().List())
	status, _ = do(http.MethodDelete, adminpath.Branches+"/web1", "")
	require.Equal(t, http.StatusBadRequest, status)
}

// TestForkDataDir: with a DataDir a branch is kept on disk as any
// namespace is: after a restart its tables and its writes are back under
// its access key, and a branch dropped before the restart comes back
// empty; the base is as it was.
func TestForkDataDir(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := emulator.New(emulator.Options{DataDir: dir})
	require.NoError(t, err)
	base := emulatortest.Client(t, e, "AKIDdataDirBase")
	seedOrders(t, base, 5)
	ns := baseNamespace(t, base)
	for _, name := range []string{"kept", "gone"} {
		_, err := e.Branches().Fork(ns, name)
		require.NoError(t, err)
		b := dynamodb.New(base.Options(), emulatortest.BranchHeader(name))
		require.Equal(t, int32(5), countItems(t, b))
		_, err = b.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str(name), "sk": str("1"), "status": str("PAID")}})
		require.NoError(t, err)
		require.Equal(t, int32(6), countItems(t, b))
		require.Equal(t, int32(1), countStatus(t, b, "PAID"))
	}
	require.NoError(t, e.Branches().Drop("gone"))
	require.Equal(t, int32(5), countItems(t, base))
	require.NoError(t, e.Close())

	e2, err := emulator.New(emulator.Options{DataDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e2.Close() })
	require.Equal(t, int32(5), countItems(t, emulatortest.Client(t, e2, "AKIDdataDirBase")))
	kept := emulatortest.Client(t, e2, "kept")
	require.Equal(t, int32(6), countItems(t, kept))
	require.Equal(t, int32(1), countStatus(t, kept, "PAID"))
	out, err := emulatortest.Client(t, e2, "gone").ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Empty(t, out.TableNames, "a branch dropped before the restart")
}

// TestForkTTL: a TTL sweep deletes the expired items of the base and of
// a written branch, each in its own copy; a branch nobody has written
// shares its tables with the other branches of its base and is swept
// from its first write on (TTL deletes within days on AWS: an expired
// item may be read until then).
func TestForkTTL(t *testing.T) {
	ctx := context.Background()
	e, base := emulatortest.NewWith(t, emulator.Options{})
	_, err := base.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("sessions"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest})
	require.NoError(t, err)
	_, err = base.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	require.NoError(t, err)
	put := func(c *dynamodb.Client, pk string, exp int64) {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("sessions"), Item: avs{"pk": str(pk), "exp": &types.AttributeValueMemberN{Value: fmt.Sprint(exp)}}})
		require.NoError(t, err)
	}
	past, future := time.Now().Add(-time.Hour).Unix(), time.Now().Add(time.Hour).Unix()
	put(base, "old", past)
	put(base, "live", future)
	ns := baseNamespace(t, base)
	for _, name := range []string{"unwritten", "written"} {
		_, err := e.Branches().Fork(ns, name)
		require.NoError(t, err)
		t.Cleanup(func() { _ = e.Branches().Drop(name) })
	}
	unwritten := dynamodb.New(base.Options(), emulatortest.BranchHeader("unwritten"))
	written := dynamodb.New(base.Options(), emulatortest.BranchHeader("written"))
	put(written, "mine", past)

	require.Equal(t, 3, e.Clock().SweepTTL(), "the base's expired item, and the written branch's two")
	keys := func(c *dynamodb.Client) []string {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("sessions")})
		require.NoError(t, err)
		var ks []string
		for _, it := range out.Items {
			ks = append(ks, it["pk"].(*types.AttributeValueMemberS).Value)
		}
		slices.Sort(ks)
		return ks
	}
	require.Equal(t, []string{"live"}, keys(base))
	require.Equal(t, []string{"live"}, keys(written))
	require.Equal(t, []string{"live", "old"}, keys(unwritten))
	put(unwritten, "other", future)
	require.Equal(t, 1, e.Clock().SweepTTL())
	require.Equal(t, []string{"live", "other"}, keys(unwritten))
}
