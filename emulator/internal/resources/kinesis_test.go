package resources

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestKinesisDestinationStates: ENABLING -> ACTIVE, UPDATING -> ACTIVE,
// DISABLING -> DISABLED on the service's clock, and AWS's refusals.
func TestKinesisDestinationStates(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures, TransientDelay: 2 * time.Second})
	e.Must("CreateTable", `{"TableName":"kin",`+onDemand+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.Clock.Advance(2 * time.Second) // CREATING until then
	const ks = "arn:aws:kinesis:us-east-1:000000000000:stream/orders"
	const ks2 = "arn:aws:kinesis:us-east-1:000000000000:stream/orders2"
	const ks3 = "arn:aws:kinesis:us-east-1:000000000000:stream/orders3"
	state := func() map[string]string {
		t.Helper()
		var d struct {
			TableName                     string
			KinesisDataStreamDestinations []struct{ StreamArn, DestinationStatus, ApproximateCreationDateTimePrecision string }
		}
		testkit.MustUnmarshal(t, e.Must("DescribeKinesisStreamingDestination", `{"TableName":"kin"}`), &d)
		out := map[string]string{}
		for _, x := range d.KinesisDataStreamDestinations {
			out[x.StreamArn] = x.DestinationStatus + "/" + x.ApproximateCreationDateTimePrecision
		}
		return out
	}
	if got := state(); len(got) != 0 {
		t.Errorf("new table: got destinations %v, want none", got)
	}
	var en struct{ DestinationStatus string }
	testkit.MustUnmarshal(t, e.Must("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`), &en)
	if en.DestinationStatus != "ENABLING" {
		t.Errorf("enable: got %s, want ENABLING", en.DestinationStatus)
	}
	if got := state()[ks]; got != "ENABLING/" {
		t.Errorf("during the delay: got %s, want ENABLING and no precision (AWS: none until set)", got)
	}
	e.Refused("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`, "ValidationException")
	e.Refused("UpdateKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MICROSECOND"}}`, "ValidationException")
	e.Clock.Advance(2 * time.Second)
	if got := state()[ks]; got != "ACTIVE/" {
		t.Errorf("after the delay: got %s, want ACTIVE and no precision", got)
	}
	e.Refused("UpdateKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MILLISECOND"}}`, "ValidationException")
	e.Refused("UpdateKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"NANOSECOND"}}`, "ValidationException")
	e.Must("UpdateKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"MICROSECOND"}}`)
	if got := state()[ks]; got != "UPDATING/MICROSECOND" {
		t.Errorf("update: got %s, want UPDATING/MICROSECOND", got)
	}
	e.Clock.Advance(2 * time.Second)
	// One live destination a table: another stream's Enable, or this
	// one's again, is refused while it is ACTIVE (and while DISABLING).
	notDisabled := apierr.MsgKinesisEnableNotDisabled
	require.Contains(t, e.Refused("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks2+`"}`, "ValidationException"), notDisabled)
	require.Contains(t, e.Refused("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`, "ValidationException"), notDisabled)
	e.Must("DisableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`)
	require.Contains(t, e.Refused("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks2+`"}`, "ValidationException"), notDisabled)
	if got := state()[ks]; got != "DISABLING/MICROSECOND" {
		t.Errorf("disable: got %s, want DISABLING/MICROSECOND", got)
	}
	e.Clock.Advance(2 * time.Second)
	if got := state()[ks]; got != "DISABLED/MICROSECOND" {
		t.Errorf("after disabling: got %s, want DISABLED/MICROSECOND", got)
	}
	e.Refused("DisableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`, "ValidationException")
	e.Must("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks3+`"}`) // a disabled one frees the place
	e.Clock.Advance(2 * time.Second)
	e.Must("DisableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks3+`"}`)
	e.Clock.Advance(2 * time.Second)
	e.Must("EnableKinesisStreamingDestination", `{"TableName":"kin","StreamArn":"`+ks+`"}`) // re-enabled in place
	if got := state(); len(got) != 2 || got[ks] != "ENABLING/" || got[ks3] != "DISABLED/" {
		t.Errorf("after re-enabling: got %v, want %s ENABLING beside %s DISABLED, no duplicate", got, ks, ks3)
	}
	for _, body := range []string{
		`{"TableName":"kin"}`,
		`{"StreamArn":"` + ks + `"}`,
		`{"TableName":"kin","StreamArn":"arn:aws:sqs:us-east-1:000000000000:queue/orders1234"}`,
		`{"TableName":"kin","StreamArn":"short"}`,
	} {
		e.Refused("EnableKinesisStreamingDestination", body, "ValidationException")
	}
	e.Refused("EnableKinesisStreamingDestination", `{"TableName":"nope","StreamArn":"`+ks+`"}`, "ResourceNotFoundException")
	e.Refused("DescribeKinesisStreamingDestination", `{"TableName":"nope"}`, "ResourceNotFoundException")
}
