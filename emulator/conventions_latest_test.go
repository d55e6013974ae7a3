package emulator_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// latestDocs builds seed 002's documents table in mode ("" enforce, or
// "warn") and keeps v1 and v2 in it both ways the seed names: v1 with
// its latest item in one transaction, then v2 alone and the latest item
// moved onto it by an UpdateItem pinned on the pointer it read.
func latestDocs(t *testing.T, mode string) *convEnv {
	t.Helper()
	env := newConvEnv(t)
	tags := []types.Tag{
		{Key: aws.String(conventions.TagRoles), Value: aws.String("")},
		{Key: aws.String(conventions.TagLatest), Value: aws.String("latest")},
	}
	if mode != "" {
		tags = append(tags, types.Tag{Key: aws.String(conventions.TagMode), Value: aws.String(mode)})
	}
	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("docs"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("documentVersion"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("documentVersion"), KeyType: types.KeyTypeHash}},
		Tags:                 tags,
	})
	require.NoError(t, err)
	_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		docPut("v1", "hello"), latestPut("v1", "hello")}})
	require.NoError(t, err)
	_, err = env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"),
		Item: map[string]av{"documentVersion": s("v2"), "content": s("second")}, ConditionExpression: aws.String("attribute_not_exists(documentVersion)")})
	require.NoError(t, err)
	require.NoError(t, moveLatest(env, "v1", "v2", "second"))
	env.e.Reports().ResetConventions()
	return env
}

// moveLatest moves the latest item from seen to v, copying content, by the
// conditional way's UpdateItem.
func moveLatest(env *convEnv, seen, v, content string) error {
	_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"),
		Key:                       map[string]av{"documentVersion": s("latest")},
		UpdateExpression:          aws.String("SET content = :c, actualVersion = :v"),
		ConditionExpression:       aws.String("actualVersion = :seen"),
		ExpressionAttributeValues: map[string]av{":c": s(content), ":v": s(v), ":seen": s(seen)}})
	return err
}

func docKey(v string) map[string]av { return map[string]av{"documentVersion": s(v)} }

// TestConventionsLatestGuarded: the version the latest item copies is
// guarded against every write that changes it (UpdateItem and PartiQL
// UPDATE as well as PutItem), and an UpdateItem of the latest item can
// neither point it back at an older version nor leave the content of the
// version it points at behind. Each wrong write is refused in enforce
// (nothing changes) and reported in warn; the seed's own writes pass.
func TestConventionsLatestGuarded(t *testing.T) {
	cases := []struct {
		name string
		do   func(env *convEnv) error
		want string // "" accepted
	}{
		{"UpdateItem of an older version", func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: docKey("v1"),
				UpdateExpression: aws.String("SET note = :n"), ExpressionAttributeValues: map[string]av{":n": s("archived")}})
			return err
		}, ""},
		{"UpdateItem of the version latest copies", func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: docKey("v2"),
				UpdateExpression: aws.String("SET content = :c"), ExpressionAttributeValues: map[string]av{":c": s("edited")}})
			return err
		}, `[conventions L1] UpdateItem rewrites partition key "v2" (its content)`},
		{"UpdateItem removing an attribute of the version latest copies", func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: docKey("v2"),
				UpdateExpression: aws.String("REMOVE content")})
			return err
		}, `[conventions L1] UpdateItem rewrites partition key "v2" (its content)`},
		{"PartiQL UPDATE of the version latest copies", func(env *convEnv) error {
			_, err := env.db.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{
				Statement: aws.String(`UPDATE "docs" SET content = 'edited' WHERE documentVersion = 'v2'`)})
			return err
		}, `[conventions L1] UpdateItem rewrites partition key "v2" (its content)`},
		{"PartiQL UPDATE in a batch", func(env *convEnv) error {
			out, err := env.db.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`UPDATE "docs" SET content = 'edited' WHERE documentVersion = 'v2'`)}}})
			if err == nil && out.Responses[0].Error != nil {
				return batchError{out.Responses[0].Error}
			}
			return err
		}, `[conventions L1]`},
		{"UpdateItem moving latest onto an older version, content copied", func(env *convEnv) error {
			return moveLatest(env, "v2", "v1", "hello")
		}, `[conventions L1] latest item moves back from partition key "v2" to "v1"`},
		{"UpdateItem moving latest onto an older version without its content", func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: docKey("latest"),
				UpdateExpression: aws.String("SET actualVersion = :v"), ConditionExpression: aws.String("actualVersion = :seen"),
				ExpressionAttributeValues: map[string]av{":v": s("v1"), ":seen": s("v2")}})
			return err
		}, `[conventions L1]`},
		{"UpdateItem moving latest onto a newer version without its content", func(env *convEnv) error {
			_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"),
				Item: map[string]av{"documentVersion": s("v3"), "content": s("third")}, ConditionExpression: aws.String("attribute_not_exists(documentVersion)")})
			if err != nil {
				return err
			}
			_, err = env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: docKey("latest"),
				UpdateExpression: aws.String("SET actualVersion = :v"), ConditionExpression: aws.String("actualVersion = :seen"),
				ExpressionAttributeValues: map[string]av{":v": s("v3"), ":seen": s("v2")}})
			return err
		}, `[conventions L1] latest item's content differs from the item it copies ("v3")`},
		{"UpdateItem moving latest onto v10 after v2 (numbers compared as numbers)", func(env *convEnv) error {
			_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"),
				Item: map[string]av{"documentVersion": s("v10"), "content": s("tenth")}, ConditionExpression: aws.String("attribute_not_exists(documentVersion)")})
			if err != nil {
				return err
			}
			return moveLatest(env, "v2", "v10", "tenth")
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := latestDocs(t, "")
			before := env.scanDocs()
			code, msg := apiError(t, tc.do(env))
			if tc.want == "" {
				require.Empty(t, code, msg)
				require.Empty(t, env.reported("docs"))
				return
			}
			require.Contains(t, []string{"ValidationException", "ValidationError"}, code, msg)
			require.Contains(t, msg, tc.want)
			after := env.scanDocs()
			for k, v := range before {
				require.Equal(t, v, after[k], "refused write changed %s", k)
			}

			warn := latestDocs(t, "warn")
			code, msg = apiError(t, tc.do(warn))
			require.Empty(t, code, "warn mode refused: %s", msg)
			require.Contains(t, warn.reported("docs"), "L1")
		})
	}
}

// TestConventionsLatestConcurrentUpdates: writers racing to move the
// latest item by the conditional way's UpdateItem, each from the pointer
// it read: one wins per round, the others fail their condition, and the
// latest item always copies the version it points at.
func TestConventionsLatestConcurrentUpdates(t *testing.T) {
	env := latestDocs(t, "")
	seen := "v2"
	for round := 3; round <= 6; round++ {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for w := range errs {
			v := "v" + string(rune('0'+round)) + string(rune('a'+w))
			_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"),
				Item: map[string]av{"documentVersion": s(v), "content": s("by " + v)}, ConditionExpression: aws.String("attribute_not_exists(documentVersion)")})
			require.NoError(t, err)
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[w] = moveLatest(env, seen, v, "by "+v)
			}()
		}
		wg.Wait()
		var codes []string
		for _, err := range errs {
			code, _ := apiError(t, err)
			codes = append(codes, code)
		}
		require.Equal(t, 1, len(slices.DeleteFunc(slices.Clone(codes), func(c string) bool { return c != "" })), "round %d: %v", round, codes)
		latest := env.scanDocs()["latest"]
		seen = latest["actualVersion"]
		require.Equal(t, "by "+seen, latest["content"])
	}
	require.Empty(t, env.reported("docs"))
}

// batchError is a BatchExecuteStatement statement's error as an API
// error (code: AWS's BatchStatementErrorCodeEnum, such as ValidationError).
type batchError struct{ e *types.BatchStatementError }

func (b batchError) Error() string                 { return b.ErrorCode() + ": " + b.ErrorMessage() }
func (b batchError) ErrorCode() string             { return string(b.e.Code) }
func (b batchError) ErrorMessage() string          { return aws.ToString(b.e.Message) }
func (b batchError) ErrorFault() smithy.ErrorFault { return smithy.FaultClient }

// scanDocs returns the docs table's string attributes by key.
func (env *convEnv) scanDocs() map[string]map[string]string {
	env.t.Helper()
	out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("docs")})
	require.NoError(env.t, err)
	items := map[string]map[string]string{}
	for _, it := range out.Items {
		m := map[string]string{}
		for k, v := range it {
			if sv, ok := v.(*types.AttributeValueMemberS); ok {
				m[k] = sv.Value
			}
		}
		items[m["documentVersion"]] = m
	}
	return items
}

// TestConventionsLatestMarkerCase: "Latest" on a table whose marker is
// "latest" is not the latest item; it is written (a style warning, A17)
// and reported.
func TestConventionsLatestMarkerCase(t *testing.T) {
	env := latestDocs(t, "")
	_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"),
		Item: map[string]av{"documentVersion": s("Latest"), "content": s("second"), "actualVersion": s("v2")}})
	require.NoError(t, err)
	require.Equal(t, []string{"A17"}, env.reported("docs"))
}
