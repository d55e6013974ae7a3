package conformance

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestKinesisDestinationMessages: Kinesis streaming destinations answer
// as AWS's recorded answers do (records/kinesis-destinations.jsonl, the
// ack-api-quirks findings DDB-TABLE-268, 299, 300 and 302, verified
// 2026-10-09): Enable echoes an empty configuration, Describe shows no
// precision until one is set, Update's and Disable's refusals carry
// AWS's messages, the same-precision one naming the TableId and the
// stream, and a table has one live destination: Enable of another
// stream, or of the same one again, is refused while it is ACTIVE.
func TestKinesisDestinationMessages(t *testing.T) {
	AWSDiffers(t, lacking("Kinesis streaming destinations", "API_UpdateKinesisStreamingDestination"))
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	name := strings.ReplaceAll(table, ".", "-")
	stream := "arn:aws:kinesis:us-east-1:000000000000:stream/" + name
	other := stream + "-other"
	en, err := c.EnableKinesisStreamingDestination(ctx(t), &dynamodb.EnableKinesisStreamingDestinationInput{TableName: &table, StreamArn: &stream})
	require.NoError(t, err)
	require.NotNil(t, en.EnableKinesisStreamingConfiguration, "Enable without a configuration: AWS echoes {}")
	require.Empty(t, en.EnableKinesisStreamingConfiguration.ApproximateCreationDateTimePrecision)
	var dest types.KinesisDataStreamDestination
	eventually(t, "ACTIVE", func() bool {
		out, err := c.DescribeKinesisStreamingDestination(ctx(t), &dynamodb.DescribeKinesisStreamingDestinationInput{TableName: &table})
		require.NoError(t, err)
		require.Len(t, out.KinesisDataStreamDestinations, 1)
		dest = out.KinesisDataStreamDestinations[0]
		return dest.DestinationStatus == types.DestinationStatusActive
	})
	require.Empty(t, dest.ApproximateCreationDateTimePrecision, "no precision until one is set")

	update := func(arn string, p types.ApproximateCreationDateTimePrecision) error {
		in := &dynamodb.UpdateKinesisStreamingDestinationInput{TableName: &table, StreamArn: aws.String(arn)}
		if p != "" {
			in.UpdateKinesisStreamingConfiguration = &types.UpdateKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: p}
		}
		_, err := c.UpdateKinesisStreamingDestination(ctx(t), in)
		return err
	}
	requireValidation(t, update(stream, ""),
		"Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be null or contain only null values")
	requireValidation(t, update(other, types.ApproximateCreationDateTimePrecisionMicrosecond),
		"Table is not in a valid state to enable Kinesis Streaming Destination: No streaming destination with streamArn: "+other+" found for table with tableName: "+table)
	id := aws.ToString(mustDescribe(t, c, table).TableId)
	requireValidation(t, update(stream, types.ApproximateCreationDateTimePrecisionMillisecond),
		"Invalid Request: Precision is already set to the desired value of MILLISECOND for tableId: "+id+", kdsArn: "+stream)
	_, err = c.DisableKinesisStreamingDestination(ctx(t), &dynamodb.DisableKinesisStreamingDestinationInput{TableName: &table, StreamArn: &other})
	requireValidation(t, err, "Table is not in a valid state to enable Kinesis Streaming Destination: KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.")
	enable := func(arn string) error {
		_, err := c.EnableKinesisStreamingDestination(ctx(t), &dynamodb.EnableKinesisStreamingDestinationInput{TableName: &table, StreamArn: aws.String(arn)})
		return err
	}
	const notDisabled = "Table is not in a valid state to enable Kinesis Streaming Destination: EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation."
	requireValidation(t, enable(other), notDisabled)
	requireValidation(t, enable(stream), notDisabled)
}
