package conformance

// Test support: clients, tables with cleanup, attribute value builders, must* helpers
// and error assertions. Everything a test creates is named uniquely and removed in
// t.Cleanup, so tests never depend on each other's leftovers.

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

const (
	defaultAccessKey = "dynamoemuconformance"
	defaultRegion    = "us-east-1"
)

type clientConfig struct {
	accessKey string
	region    string
	url       string // the endpoint, when not the target's
}

type clientOption func(*clientConfig)

// withAccessKey gives the client its own access key: on DynamoDB Local and the
// emulator that is a database of its own (a namespace per access key + region).
func withAccessKey(key string) clientOption { return func(c *clientConfig) { c.accessKey = key } }

// withEndpoint sends the client's requests to url instead of the
// target (another in-process emulator).
func withEndpoint(url string) clientOption { return func(c *clientConfig) { c.url = url } }

// withRegion sets the client's region (fake-credential targets only).
func withRegion(region string) clientOption { return func(c *clientConfig) { c.region = region } }

func target(t testing.TB) Target {
	t.Helper()
	tg, err := CurrentTarget()
	if err != nil {
		t.Fatalf("conformance target: %v", err)
	}
	return tg
}

// isolatedNamespaces reports whether a unique access key gives a test a database of
// its own, so whole-namespace answers (ListTables) are exact.
func isolatedNamespaces(t testing.TB) bool { return target(t).FakeCredentials() }

// newClient returns a *dynamodb.Client for the target, built as a user builds one.
// Against fake-credential targets it uses static credentials; against AWS the
// default credential chain and region.
func newClient(t testing.TB, opts ...clientOption) *dynamodb.Client {
	t.Helper()
	tg := target(t)
	cc := clientConfig{accessKey: defaultAccessKey, region: defaultRegion}
	for _, o := range opts {
		o(&cc)
	}
	ctx := context.Background()
	var loadOpts []func(*config.LoadOptions) error
	if tg.Oracle == "" {
		// Against the emulator only failed connections are retried (the SDK's own
		// keep-alive race), so a stray 500 fails the test rather than being
		// hidden. DynamoDB Local throws an occasional InternalFailure under
		// parallel load, and AWS throttles: there the SDK's default retries stay on.
		loadOpts = append(loadOpts, config.WithRetryer(emulatortest.ConnectionRetryer))
	}
	if tg.FakeCredentials() {
		loadOpts = append(loadOpts,
			config.WithRegion(cc.region),
			config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cc.accessKey, "fakesecret", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		t.Fatalf("load AWS config: %v", err)
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		// The SDK's own warnings go to the test log, shown with -v or on failure.
		o.Logger = logging.LoggerFunc(func(c logging.Classification, format string, v ...any) {
			t.Logf("SDK %s: "+format, append([]any{c}, v...)...)
		})
		if url := cmp.Or(cc.url, tg.URL); url != "" {
			o.BaseEndpoint = aws.String(url)
		}
	})
}

// uniqueName returns a fresh valid table name that says which test made it.
func uniqueName(t testing.TB) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	base := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '_'
	}, t.Name())
	if len(base) > 60 {
		base = base[len(base)-60:]
	}
	return "conf." + base + "." + hex.EncodeToString(b[:])
}

// uniqueKey returns a fresh access key (a namespace of its own on fake-credential targets).
func uniqueKey(t testing.TB) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "conf" + hex.EncodeToString(b[:])
}

// ctx is a request's context, bounded by requestBound times the scale.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), scaled(requestBound))
	t.Cleanup(cancel)
	return c
}

// createTable creates the table described by in (a unique TableName when empty,
// PAY_PER_REQUEST when no billing is given), waits until it is ACTIVE and deletes it
// when the test ends. It returns the table's name.
func createTable(t testing.TB, c *dynamodb.Client, in *dynamodb.CreateTableInput) string {
	t.Helper()
	if in.TableName == nil {
		in.TableName = aws.String(uniqueName(t))
	}
	if in.BillingMode == "" && in.ProvisionedThroughput == nil {
		in.BillingMode = types.BillingModePayPerRequest
	}
	out, err := c.CreateTable(ctx(t), in)
	if err != nil {
		t.Fatalf("CreateTable %s: %v", *in.TableName, err)
	}
	name := *in.TableName
	t.Cleanup(func() { deleteTable(t, c, name) })
	if out.TableDescription.TableStatus != types.TableStatusActive {
		w := dynamodb.NewTableExistsWaiter(c)
		if err := w.Wait(context.Background(), &dynamodb.DescribeTableInput{TableName: &name}, 10*time.Minute); err != nil {
			t.Fatalf("wait for %s: %v", name, err)
		}
	}
	return name
}

// deleteTable deletes a table this test created, turning deletion protection off first
// if needed; a table already gone is fine.
func deleteTable(t testing.TB, c *dynamodb.Client, name string) {
	t.Helper()
	bg := context.Background()
	_, err := c.DeleteTable(bg, &dynamodb.DeleteTableInput{TableName: &name})
	var inUse *types.ResourceInUseException
	var notFound *types.ResourceNotFoundException
	switch {
	case err == nil, errors.As(err, &notFound):
		return
	case errors.As(err, &inUse), strings.Contains(err.Error(), "eletion"):
		if _, uerr := c.UpdateTable(bg, &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(false)}); uerr != nil {
			t.Errorf("cleanup: turn off deletion protection of %s: %v", name, uerr)
			return
		}
		if _, err = c.DeleteTable(bg, &dynamodb.DeleteTableInput{TableName: &name}); err == nil {
			return
		}
	}
	t.Errorf("cleanup: DeleteTable %s: %v", name, err)
}

// keyDef is a key attribute: name and type ("S", "N" or "B").
type keyDef struct{ name, typ string }

// tableDef builds a CreateTableInput for a table with a partition key and an optional
// sort key (sk.name == "").
func tableDef(pk, sk keyDef) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(pk.name), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(pk.name), AttributeType: types.ScalarAttributeType(pk.typ)}},
	}
	if sk.name != "" {
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(sk.name), KeyType: types.KeyTypeRange})
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(sk.name), AttributeType: types.ScalarAttributeType(sk.typ)})
	}
	return in
}

// hashTable creates a table keyed by pk (S).
func hashTable(t testing.TB, c *dynamodb.Client) string {
	t.Helper()
	return createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
}

// rangeTable creates a table keyed by pk (S) and sk (N).
func rangeTable(t testing.TB, c *dynamodb.Client) string {
	t.Helper()
	return createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
}

// Attribute value builders.

func s(v string) types.AttributeValue     { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue     { return &types.AttributeValueMemberN{Value: v} }
func b(v []byte) types.AttributeValue     { return &types.AttributeValueMemberB{Value: v} }
func bl(v bool) types.AttributeValue      { return &types.AttributeValueMemberBOOL{Value: v} }
func null() types.AttributeValue          { return &types.AttributeValueMemberNULL{Value: true} }
func ss(v ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }
func ns(v ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: v} }
func bs(v ...[]byte) types.AttributeValue { return &types.AttributeValueMemberBS{Value: v} }
func l(v ...types.AttributeValue) types.AttributeValue {
	if v == nil {
		v = []types.AttributeValue{}
	}
	return &types.AttributeValueMemberL{Value: v}
}
func m(v item) types.AttributeValue {
	if v == nil {
		v = item{}
	}
	return &types.AttributeValueMemberM{Value: v}
}

type item = map[string]types.AttributeValue

// render prints an attribute value in a canonical form (sets and maps sorted), for
// comparing items and for readable failure messages.
func render(v types.AttributeValue) string {
	switch v := v.(type) {
	case nil:
		return "<nil>"
	case *types.AttributeValueMemberS:
		return "S:" + fmt.Sprintf("%q", v.Value)
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberB:
		return "B:" + hex.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL:%v", v.Value)
	case *types.AttributeValueMemberNULL:
		return fmt.Sprintf("NULL:%v", v.Value)
	case *types.AttributeValueMemberSS:
		return "SS" + sortedList(v.Value, func(x string) string { return fmt.Sprintf("%q", x) })
	case *types.AttributeValueMemberNS:
		return "NS" + sortedList(v.Value, func(x string) string { return x })
	case *types.AttributeValueMemberBS:
		return "BS" + sortedList(v.Value, hex.EncodeToString)
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = render(e)
		}
		return "L[" + strings.Join(parts, ", ") + "]"
	case *types.AttributeValueMemberM:
		return "M" + renderItem(v.Value)
	}
	return fmt.Sprintf("%T", v)
}

func sortedList[T any](vs []T, f func(T) string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = f(v)
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, ", ") + "]"
}

// renderItem prints an item canonically; a nil item prints as <none>.
func renderItem(it item) string {
	if it == nil {
		return "<none>"
	}
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + render(it[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func renderItems(its []item) string {
	parts := make([]string, len(its))
	for i, it := range its {
		parts[i] = renderItem(it)
	}
	return "[" + strings.Join(parts, "\n ") + "]"
}

// requireItem fails the test unless got equals want (nil want: no item).
func requireItem(t testing.TB, got, want item) {
	t.Helper()
	if g, w := renderItem(got), renderItem(want); g != w {
		t.Fatalf("item:\n got %s\nwant %s", g, w)
	}
}

func requireItems(t testing.TB, got, want []item) {
	t.Helper()
	if g, w := renderItems(got), renderItems(want); g != w {
		t.Fatalf("items:\n got %s\nwant %s", g, w)
	}
}

// must* helpers fail the test on any error.

func mustPut(t testing.TB, c *dynamodb.Client, table string, it item) {
	t.Helper()
	if _, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it}); err != nil {
		t.Fatalf("PutItem %s: %v", renderItem(it), err)
	}
}

func mustGet(t testing.TB, c *dynamodb.Client, table string, key item) item {
	t.Helper()
	out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem %s: %v", renderItem(key), err)
	}
	return out.Item
}

func mustDescribe(t testing.TB, c *dynamodb.Client, table string) *types.TableDescription {
	t.Helper()
	out, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &table})
	if err != nil {
		t.Fatalf("DescribeTable %s: %v", table, err)
	}
	return out.Table
}

func mustNoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// requireAPIError fails the test unless err is an API error with this code and,
// when message is not "", exactly this message.
// apiErrorCode is err's API error code, "" when err is none.
func apiErrorCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

func requireAPIError(t testing.TB, err error, code, message string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s: %q", code, message)
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("got error %v (%T), want API error %s", err, err, code)
	}
	if ae.ErrorCode() != code || (message != "" && ae.ErrorMessage() != message) {
		t.Fatalf("got %s: %q\nwant %s: %q", ae.ErrorCode(), ae.ErrorMessage(), code, message)
	}
}

// requireValidation is requireAPIError for ValidationException.
func requireValidation(t testing.TB, err error, message string) {
	t.Helper()
	requireAPIError(t, err, "ValidationException", message)
}

// requireValidationMatch is requireValidation for an answer of which only
// a part is known (the records show what AWS's message contains, not its
// whole text): the message must match the regular expression pattern.
func requireValidationMatch(t testing.TB, err error, pattern string) {
	t.Helper()
	requireAPIError(t, err, "ValidationException", "")
	var ae smithy.APIError
	errors.As(err, &ae)
	if !regexp.MustCompile(pattern).MatchString(ae.ErrorMessage()) {
		t.Fatalf("got %q, want a message matching %q", ae.ErrorMessage(), pattern)
	}
}

// rawResponse is what an endpoint answered to a hand-made request.
type rawResponse struct {
	Status  int
	Type    string // __type without its namespace prefix
	Message string
	Body    []byte
}

// rawCall sends a signed request with an arbitrary body, for inputs the SDK cannot
// produce (malformed JSON, wrongly typed fields).
func rawCall(t testing.TB, op string, body string) rawResponse {
	t.Helper()
	return rawSend(t, op, []byte(body), nil).rawResponse
}

// asErr is errors.As, kept short for the tests.
func asErr[T error](err error, target *T) bool { return errors.As(err, target) }

// mustBatchWrite writes up to 25 requests, resubmitting UnprocessedItems.
func mustBatchWrite(t testing.TB, c *dynamodb.Client, table string, reqs []types.WriteRequest) {
	t.Helper()
	pending := map[string][]types.WriteRequest{table: reqs}
	for len(pending) > 0 {
		out, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("BatchWriteItem: %v", err)
		}
		pending = out.UnprocessedItems
	}
}
