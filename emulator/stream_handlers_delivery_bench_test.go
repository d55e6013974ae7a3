//go:build unix

package emulator_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// BenchmarkStreamDelivery is a record's way from a write to its handler,
// at rest: each op is a PutItem through the SDK and the wait until the
// Go function of a mapping on the table's stream has it (ns/op), with
// idle other mappings (on 20 other tables, and 20 waiting for a table
// not made) beside it. Then, with every mapping idle, the process's CPU
// time over a second of quiet (getrusage: user and system), reported
// as idle-cpu-ms/s: with the pollers waiting on change signals it is the
// runtime's own (a few ms or none); the pollers of 20 ms took some per
// mapping.
func BenchmarkStreamDelivery(b *testing.B) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(b, err)
	defer e.Close()
	db := emulatortest.Client(b, e, "bench")
	ctx := context.Background()
	table := func(name string) string {
		out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
			StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		})
		require.NoError(b, err)
		return *out.TableDescription.LatestStreamArn
	}
	got := make(chan struct{}, 1)
	e.Streams().SetFunction("handler", func(context.Context, []byte) ([]byte, error) {
		got <- struct{}{}
		return nil, nil
	})
	e.Streams().SetFunction("idle", func(context.Context, []byte) ([]byte, error) { return nil, nil })
	mk := func(m emulator.EventSourceMapping) {
		m.StartingPosition = aws.String("LATEST")
		_, err := e.Streams().CreateMapping(m)
		require.NoError(b, err)
	}
	mk(emulator.EventSourceMapping{EventSourceArn: aws.String(table("orders")), FunctionName: aws.String("handler")})
	for i := range 20 {
		mk(emulator.EventSourceMapping{EventSourceArn: aws.String(table(fmt.Sprint("other", i))), FunctionName: aws.String("idle")})
		mk(emulator.EventSourceMapping{TableName: aws.String(fmt.Sprint("later", i)), FunctionName: aws.String("idle")})
	}
	i := 0
	for b.Loop() {
		i++
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
			Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}}})
		require.NoError(b, err)
		<-got
	}
	b.StopTimer()
	require.NoError(b, e.Streams().Drain(ctx))
	time.Sleep(100 * time.Millisecond) // the last batch's save and look
	before := cpuTime(b)
	time.Sleep(time.Second)
	b.ReportMetric(float64((cpuTime(b)-before).Microseconds())/1000, "idle-cpu-ms/s")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
