package emulatortest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// failedTB is a test that has failed, whose log and clean-ups are kept.
type failedTB struct {
	testing.TB
	logs     []string
	cleanups []func()
}

func (f *failedTB) Failed() bool      { return true }
func (f *failedTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *failedTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *failedTB) Helper() {}

// TestConsistencyEnv: DYNAMOEMU_CONSISTENCY puts NewWith's emulator in
// consistency fuzzing, so an eventually consistent read right after a
// write misses it, and StaleReads writes that read to a failed test's
// log; a strongly consistent read sees the write.
func TestConsistencyEnv(t *testing.T) {
	t.Setenv(ConsistencyEnv, "fuzz:5")
	e, db := NewWith(t, emulator.Options{})
	require.Equal(t, "fuzz", e.Reports().Consistency().Mode)
	require.Equal(t, uint64(5), e.Reports().Consistency().Seed)

	ctx := context.Background()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	require.NoError(t, err)
	ft := &failedTB{TB: t}
	StaleReads(ft, e)
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: key})
	require.NoError(t, err)
	got, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: key})
	require.NoError(t, err)
	require.Nil(t, got.Item, "the eventually consistent read right after the put misses it")
	got, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: key, ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	require.NotNil(t, got.Item, "a strongly consistent read is never stale")

	for _, fn := range ft.cleanups {
		fn()
	}
	require.Len(t, ft.logs, 1)
	require.True(t, strings.HasPrefix(ft.logs[0], "stale read (consistency fuzzing, seed 5): "), ft.logs[0])
	require.Contains(t, ft.logs[0], `"op":"GetItem"`)
	require.Contains(t, ft.logs[0], `"missed":[{"commit":1,"op":"PutItem","key":{"pk":{"S":"a"}},"event":"INSERT"`)
}

// TestConsistencyOptionsWin: Options.Consistency set wins over the
// environment.
func TestConsistencyOptionsWin(t *testing.T) {
	t.Setenv(ConsistencyEnv, "fuzz:5")
	e, _ := NewWith(t, emulator.Options{Consistency: "strong"})
	require.Equal(t, "strong", e.Reports().Consistency().Mode)
}

// TestStaleReadsParallelForks: parallel subtests, each on a fork of one
// seeded base in consistency fuzzing, each failing: StaleReads writes to
// each test's log its own stale reads and no other test's, whether it is
// called before the fork or after.
func TestStaleReadsParallelForks(t *testing.T) {
	e, base := NewWith(t, emulator.Options{Consistency: "fuzz:11"})
	ctx := context.Background()
	_, err := base.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}}})
	require.NoError(t, err)

	const tests, writes = 20, 3
	logs := make([][]string, tests)
	t.Run("forks", func(t *testing.T) {
		for i := range tests {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				ft := &failedTB{TB: t}
				var db *dynamodb.Client
				if i%2 == 0 {
					StaleReads(ft, e)
					db = Fork(ft, e, base)
				} else {
					db = Fork(ft, e, base)
					StaleReads(ft, e)
				}
				for j := range writes {
					key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("t%d-%d", i, j)}}
					_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: key})
					require.NoError(t, err)
					// Read right after the write: stale in fuzzing.
					_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: key})
					require.NoError(t, err)
				}
				for k := len(ft.cleanups) - 1; k >= 0; k-- { // as testing runs them: last first
					ft.cleanups[k]()
				}
				logs[i] = ft.logs
			})
		}
	})
	for i, lines := range logs {
		require.NotEmpty(t, lines, "test %d: its stale reads", i)
		for _, line := range lines {
			require.Contains(t, line, fmt.Sprintf(`"pk":{"S":"t%d-`, i), "test %d logs only its own stale reads", i)
		}
	}
}
