package conformance

// Control plane updates: UpdateTable (billing mode, throughput, deletion
// protection, streams, combinations, errors), DescribeTable after updates,
// DescribeLimits, DescribeEndpoints and ListTables paging edge cases.
//
// AWS texts asserted under AWSDiffers come from AWS responses recorded by others:
// the ack-api-quirks DynamoDB lab notes (AWS, us-west-2 and us-east-1, 2026;
// findings DDB-TABLE-070 and DDB-TABLE-442), scylladb/scylladb issue #6939 ("Table already
// has an enabled stream: TableName: ...") and ScyllaDB PR #31553 (a disabled stream
// keeps LatestStreamArn but loses StreamSpecification, tested on DynamoDB).

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// waitUpdated waits, on AWS only, until an updated table is ACTIVE again.
func waitUpdated(t testing.TB, c *dynamodb.Client, name string) {
	t.Helper()
	if target(t).Oracle != OracleAWS {
		return
	}
	if err := dynamodb.NewTableExistsWaiter(c).Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 10*time.Minute); err != nil {
		t.Fatalf("wait for %s: %v", name, err)
	}
}

// mustUpdate runs UpdateTable on name with the members set by mod, then waits on AWS.
func mustUpdate(t testing.TB, c *dynamodb.Client, name string, mod func(in *dynamodb.UpdateTableInput)) *types.TableDescription {
	t.Helper()
	in := &dynamodb.UpdateTableInput{TableName: &name}
	mod(in)
	out, err := c.UpdateTable(ctx(t), in)
	if err != nil {
		t.Fatalf("UpdateTable %s: %v", name, err)
	}
	waitUpdated(t, c, name)
	return out.TableDescription
}

func throughputOf(d *types.TableDescription) string {
	if d.ProvisionedThroughput == nil {
		return "<none>"
	}
	return fmt.Sprintf("%d/%d", aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits), aws.ToInt64(d.ProvisionedThroughput.WriteCapacityUnits))
}

func billingOf(d *types.TableDescription) types.BillingMode {
	if d.BillingModeSummary == nil {
		return ""
	}
	return d.BillingModeSummary.BillingMode
}

func provisionedTable(t testing.TB, c *dynamodb.Client, r, w int64) string {
	t.Helper()
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.ProvisionedThroughput = pt(r, w)
	return createTable(t, c, in)
}

func TestUpdateTableBillingModeSwitch(t *testing.T) {
	t.Parallel()
	c := newClient(t)

	t.Run("provisioned to on-demand and back", func(t *testing.T) {
		t.Parallel()
		name := provisionedTable(t, c, 5, 5)
		before := time.Now().Add(-time.Minute)
		out := mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.BillingMode = types.BillingModePayPerRequest })
		if *out.TableName != name {
			t.Errorf("UpdateTable TableName = %q", *out.TableName)
		}
		d := mustDescribe(t, c, name)
		if billingOf(d) != types.BillingModePayPerRequest || throughputOf(d) != "0/0" {
			t.Fatalf("on demand: billing %q, throughput %s; want PAY_PER_REQUEST, 0/0", billingOf(d), throughputOf(d))
		}
		since := d.BillingModeSummary.LastUpdateToPayPerRequestDateTime
		if since == nil || since.Before(before) || since.After(time.Now().Add(time.Minute)) {
			t.Fatalf("LastUpdateToPayPerRequestDateTime = %v, want about now", since)
		}

		mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = pt(3, 4)
		})
		d = mustDescribe(t, c, name)
		if billingOf(d) != types.BillingModeProvisioned || throughputOf(d) != "3/4" {
			t.Fatalf("provisioned again: billing %q, throughput %s; want PROVISIONED, 3/4", billingOf(d), throughputOf(d))
		}
		// The time of the last switch to on-demand is still reported.
		if got := d.BillingModeSummary.LastUpdateToPayPerRequestDateTime; got == nil || !got.Equal(*since) {
			t.Fatalf("LastUpdateToPayPerRequestDateTime = %v, want %v", got, since)
		}
	})

	t.Run("on-demand to provisioned", func(t *testing.T) {
		t.Parallel()
		name := hashTable(t, c)
		mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = pt(2, 1)
		})
		if d := mustDescribe(t, c, name); billingOf(d) != types.BillingModeProvisioned || throughputOf(d) != "2/1" {
			t.Fatalf("billing %q, throughput %s; want PROVISIONED, 2/1", billingOf(d), throughputOf(d))
		}
	})

	t.Run("provisioned without throughput", func(t *testing.T) {
		t.Parallel()
		name := hashTable(t, c)
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, BillingMode: types.BillingModeProvisioned})
		requireValidation(t, err, "")
		t.Run("message", func(t *testing.T) {
			AWSDiffers(t, "DynamoDB Local says \"No provisioned throughput specified for the table\"")
			requireValidation(t, err, "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED")
		})
		if d := mustDescribe(t, c, name); billingOf(d) != types.BillingModePayPerRequest {
			t.Fatalf("refused update changed billing to %q", billingOf(d))
		}
	})

	t.Run("throughput on on-demand table", func(t *testing.T) {
		t.Parallel()
		AWSDiffers(t, "DynamoDB Local accepts ProvisionedThroughput on a PAY_PER_REQUEST table and ignores it")
		name := hashTable(t, c)
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(5, 5)})
		requireValidation(t, err, "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
	})
}

func TestUpdateTableThroughput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := provisionedTable(t, c, 5, 5)

	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(5, 5)})
	requireValidation(t, err, "")
	t.Run("unchanged message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"The requested throughput value equals the current value\"")
		requireValidation(t, err, "The provisioned throughput for the table will not change. The requested value equals the current value. "+
			"Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. "+
			"Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. "+
			"Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
	})

	for _, step := range []struct {
		r, w int64
	}{{6, 5}, {6, 2}, {1, 1}, {8, 8}} {
		out := mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.ProvisionedThroughput = pt(step.r, step.w) })
		if *out.TableName != name {
			t.Fatalf("UpdateTable TableName = %q", *out.TableName)
		}
		if got, want := throughputOf(mustDescribe(t, c, name)), fmt.Sprintf("%d/%d", step.r, step.w); got != want {
			t.Fatalf("after update to %s: throughput %s", want, got)
		}
	}

	t.Run("above table maximum", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local answers ValidationException \"Cannot increase provisioned throughput to more than 40,000 units per table\"")
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(40001, 1)})
		if target(t).Oracle == OracleAWS {
			requireAPIError(t, err, "LimitExceededException", "") // the quota and region vary by account
			return
		}
		requireAPIError(t, err, "LimitExceededException",
			"The requested ReadCapacityUnits, 40001, is above the per table maximum for the account in "+defaultRegion+". Per table maximum: 40000.")
	})

	t.Run("zero capacity", func(t *testing.T) {
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(0, 1)})
		requireValidation(t, err, "")
	})

	t.Run("history", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local reports LastIncreaseDateTime and LastDecreaseDateTime as 0 and NumberOfDecreasesToday as 0")
		// Above: three updates decreased capacity (6/5 -> 6/2 -> 1/1 after one increase) and the
		// last one increased it. AWS API reference, ProvisionedThroughputDescription.
		p := mustDescribe(t, c, name).ProvisionedThroughput
		if p.LastIncreaseDateTime == nil || p.LastDecreaseDateTime == nil || time.Since(*p.LastIncreaseDateTime) > time.Hour ||
			time.Since(*p.LastDecreaseDateTime) > time.Hour {
			t.Fatalf("LastIncreaseDateTime %v, LastDecreaseDateTime %v; want both about now", p.LastIncreaseDateTime, p.LastDecreaseDateTime)
		}
		if n := aws.ToInt64(p.NumberOfDecreasesToday); n < 1 {
			t.Fatalf("NumberOfDecreasesToday = %d, want at least 1", n)
		}
	})
}

func TestUpdateTableDeletionProtection(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)

	out := mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.DeletionProtectionEnabled = aws.Bool(true) })
	if !aws.ToBool(out.DeletionProtectionEnabled) {
		t.Fatalf("UpdateTable response: DeletionProtectionEnabled = false after turning it on")
	}
	if !aws.ToBool(mustDescribe(t, c, name).DeletionProtectionEnabled) {
		t.Fatalf("DescribeTable: DeletionProtectionEnabled = false after turning it on")
	}
	arn := aws.ToString(mustDescribe(t, c, name).TableArn)
	for _, id := range []string{name, arn} {
		_, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: aws.String(id)})
		requireValidation(t, err, "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	}
	mustPut(t, c, name, item{"pk": s("still here")})
	requireItem(t, mustGet(t, c, name, item{"pk": s("still here")}), item{"pk": s("still here")})

	if target(t).Oracle == OracleAWS {
		time.Sleep(16 * time.Second) // AWS: one deletion protection change per 15 s (ThrottlingException)
	}
	mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.DeletionProtectionEnabled = aws.Bool(false) })
	if aws.ToBool(mustDescribe(t, c, name).DeletionProtectionEnabled) {
		t.Fatalf("DeletionProtectionEnabled = true after turning it off")
	}
	_, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	mustNoError(t, err)
}

func TestUpdateTableStreams(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)
	enable := func(view types.StreamViewType) *dynamodb.UpdateTableInput {
		return &dynamodb.UpdateTableInput{TableName: &name, StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}}
	}
	disable := &dynamodb.UpdateTableInput{TableName: &name, StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}

	d := mustDescribe(t, c, name)
	if d.StreamSpecification != nil || d.LatestStreamArn != nil || d.LatestStreamLabel != nil {
		t.Fatalf("new table reports a stream: %+v %v %v", d.StreamSpecification, d.LatestStreamArn, d.LatestStreamLabel)
	}

	// Disabling the absent stream.
	_, err := c.UpdateTable(ctx(t), disable)
	requireValidation(t, err, "")
	t.Run("no stream message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Table has no stream to disable\"")
		requireValidation(t, err, "Table has no stream to disable: TableName: "+name)
	})

	// Enabling without a view type.
	_, err = c.UpdateTable(ctx(t), enable(""))
	requireValidation(t, err, "")
	t.Run("view type required message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.\"")
		requireValidation(t, err, "One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required")
	})

	out, err := c.UpdateTable(ctx(t), enable(types.StreamViewTypeNewAndOldImages))
	mustNoError(t, err)
	waitUpdated(t, c, name)
	for _, d := range []*types.TableDescription{out.TableDescription, mustDescribe(t, c, name)} {
		ss := d.StreamSpecification
		if ss == nil || !aws.ToBool(ss.StreamEnabled) || ss.StreamViewType != types.StreamViewTypeNewAndOldImages {
			t.Fatalf("StreamSpecification = %+v, want enabled NEW_AND_OLD_IMAGES", ss)
		}
		label := aws.ToString(d.LatestStreamLabel)
		if label == "" || aws.ToString(d.LatestStreamArn) != aws.ToString(d.TableArn)+"/stream/"+label {
			t.Fatalf("LatestStreamArn %q, LatestStreamLabel %q, TableArn %q", aws.ToString(d.LatestStreamArn), label, aws.ToString(d.TableArn))
		}
	}
	label := aws.ToString(mustDescribe(t, c, name).LatestStreamLabel)

	// Enabling again, also with another view type, is refused.
	for _, view := range []types.StreamViewType{types.StreamViewTypeNewAndOldImages, types.StreamViewTypeKeysOnly} {
		_, err = c.UpdateTable(ctx(t), enable(view))
		requireValidation(t, err, "")
		t.Run("already enabled message "+string(view), func(t *testing.T) {
			AWSDiffers(t, "DynamoDB Local says \"Table already has an enabled stream\"")
			requireValidation(t, err, "Table already has an enabled stream: TableName: "+name)
		})
	}
	if ss := mustDescribe(t, c, name).StreamSpecification; ss == nil || ss.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("refused update changed the stream: %+v", ss)
	}

	// Disabling with a view type.
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false), StreamViewType: types.StreamViewTypeKeysOnly}})
	requireValidation(t, err, "")
	t.Run("view type when disabling message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present.\"")
		requireValidation(t, err, "One or more parameter values were invalid: If stream is being disabled, then UpdateViewType must not be specified")
	})

	// Disabling: the specification goes, the latest stream's label and ARN stay.
	_, err = c.UpdateTable(ctx(t), disable)
	mustNoError(t, err)
	waitUpdated(t, c, name)
	d = mustDescribe(t, c, name)
	if d.StreamSpecification != nil {
		t.Fatalf("StreamSpecification = %+v after disabling, want none", d.StreamSpecification)
	}
	if aws.ToString(d.LatestStreamLabel) != label || aws.ToString(d.LatestStreamArn) != aws.ToString(d.TableArn)+"/stream/"+label {
		t.Fatalf("after disabling: LatestStreamLabel %q, LatestStreamArn %q; want the disabled stream's (%s)", aws.ToString(d.LatestStreamLabel), aws.ToString(d.LatestStreamArn), label)
	}

	// Enabling again makes a new stream with its own label.
	if target(t).Oracle == OracleAWS {
		time.Sleep(time.Second)
	}
	_, err = c.UpdateTable(ctx(t), enable(types.StreamViewTypeKeysOnly))
	mustNoError(t, err)
	waitUpdated(t, c, name)
	d = mustDescribe(t, c, name)
	if ss := d.StreamSpecification; ss == nil || ss.StreamViewType != types.StreamViewTypeKeysOnly {
		t.Fatalf("re-enabled: StreamSpecification = %+v, want KEYS_ONLY", ss)
	}
	if aws.ToString(d.LatestStreamLabel) == "" || aws.ToString(d.LatestStreamLabel) < label {
		t.Fatalf("re-enabled: LatestStreamLabel %q, want one after %q", aws.ToString(d.LatestStreamLabel), label)
	}
}

func TestUpdateTableStreamWithThroughput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := provisionedTable(t, c, 5, 5)
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, ProvisionedThroughput: pt(6, 6),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
	requireValidation(t, err, "")
	t.Run("message", func(t *testing.T) {
		AWSDiffers(t, "DynamoDB Local says \"Cannot change IOPS and Streams at the same time.\"")
		requireValidation(t, err, "One or more parameter values were invalid: You cannot modify stream status while updating table IOPS")
	})
	d := mustDescribe(t, c, name)
	if throughputOf(d) != "5/5" || d.StreamSpecification != nil {
		t.Fatalf("refused update changed the table: throughput %s, stream %+v", throughputOf(d), d.StreamSpecification)
	}
}

// TestUpdateTableOneChange: AWS refuses requests that combine a deletion
// protection, table class or SSE change with anything else.
func TestUpdateTableOneChange(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local applies combined changes (e.g. DeletionProtectionEnabled with ProvisionedThroughput) in one UpdateTable")
	c := newClient(t)
	name := provisionedTable(t, c, 5, 5)
	tests := []struct {
		name string
		mod  func(in *dynamodb.UpdateTableInput)
		msg  string
	}{
		{"protection and throughput", func(in *dynamodb.UpdateTableInput) {
			in.DeletionProtectionEnabled = aws.Bool(true)
			in.ProvisionedThroughput = pt(6, 6)
		}, "One or more parameter values were invalid: DeletionProtection modification must be the only operation in the request"},
		{"sse and protection", func(in *dynamodb.UpdateTableInput) {
			in.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true)}
			in.DeletionProtectionEnabled = aws.Bool(true)
		}, "One or more parameter values were invalid: Server-Side Encryption modification must be the only operation in the request"},
		{"table class and billing", func(in *dynamodb.UpdateTableInput) {
			in.TableClass = types.TableClassStandardInfrequentAccess
			in.BillingMode = types.BillingModePayPerRequest
		}, "One or more parameter values were invalid: TableClass modification must be the only operation in the request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &dynamodb.UpdateTableInput{TableName: &name}
			tc.mod(in)
			_, err := c.UpdateTable(ctx(t), in)
			requireValidation(t, err, tc.msg)
		})
	}
	d := mustDescribe(t, c, name)
	if throughputOf(d) != "5/5" || aws.ToBool(d.DeletionProtectionEnabled) || d.SSEDescription != nil || d.TableClassSummary != nil {
		t.Fatalf("refused updates changed the table: %s, protection %v, SSE %+v, class %+v", throughputOf(d), aws.ToBool(d.DeletionProtectionEnabled), d.SSEDescription, d.TableClassSummary)
	}
}

func TestUpdateTableErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	name := hashTable(t, c)
	missing := uniqueName(t)
	tests := []struct {
		name   string
		in     *dynamodb.UpdateTableInput
		code   string
		msg    string // checked only under AWSDiffers (DynamoDB Local words all of them differently)
		differ string
	}{
		{"nothing to update", &dynamodb.UpdateTableInput{TableName: &name}, "ValidationException",
			"At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, " +
				"MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required",
			"DynamoDB Local says \"Nothing to update\""},
		{"missing table, protection", &dynamodb.UpdateTableInput{TableName: &missing, DeletionProtectionEnabled: aws.Bool(true)}, "ResourceNotFoundException",
			"Requested resource not found: Table: " + missing + " not found", "DynamoDB Local says \"Cannot do operations on a non-existent table\""},
		{"missing table, billing", &dynamodb.UpdateTableInput{TableName: &missing, BillingMode: types.BillingModePayPerRequest}, "ResourceNotFoundException",
			"Requested resource not found: Table: " + missing + " not found", "DynamoDB Local says \"Cannot do operations on a non-existent table\""},
		{"missing table, throughput", &dynamodb.UpdateTableInput{TableName: &missing, ProvisionedThroughput: pt(1, 1)}, "ResourceNotFoundException",
			"Requested resource not found: Table: " + missing + " not found", "DynamoDB Local says \"Cannot do operations on a non-existent table\""},
		{"missing table, by ARN", &dynamodb.UpdateTableInput{TableName: aws.String(strings.TrimSuffix(aws.ToString(mustDescribe(t, c, name).TableArn), name) + missing),
			DeletionProtectionEnabled: aws.Bool(true)}, "ResourceNotFoundException", "", ""},
		{"invalid name", &dynamodb.UpdateTableInput{TableName: aws.String("x"), DeletionProtectionEnabled: aws.Bool(true)}, "ValidationException", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.UpdateTable(ctx(t), tc.in)
			requireAPIError(t, err, tc.code, "")
			if tc.msg != "" {
				t.Run("message", func(t *testing.T) {
					AWSDiffers(t, tc.differ)
					requireAPIError(t, err, tc.code, tc.msg)
				})
			}
		})
	}

	// Request validation comes before the existence check (AWS, DDB-TABLE-070).
	t.Run("invalid request on missing table", func(t *testing.T) {
		t.Parallel()
		AWSDiffers(t, "DynamoDB Local looks the table up first and answers ResourceNotFoundException")
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &missing, ProvisionedThroughput: pt(1, 0)})
		requireValidation(t, err, "1 validation error detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1")
	})
}

// TestDescribeTableAfterUpdateTable: what UpdateTable must not change, and the
// table's items, survive every kind of update.
func TestDescribeTableAfterUpdateTable(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"})
	in.ProvisionedThroughput = pt(5, 5)
	name := createTable(t, c, in)
	mustPut(t, c, name, item{"pk": s("a"), "sk": n("1"), "v": s("x")})
	first := mustDescribe(t, c, name)

	updates := []func(in *dynamodb.UpdateTableInput){
		func(in *dynamodb.UpdateTableInput) { in.ProvisionedThroughput = pt(7, 3) },
		func(in *dynamodb.UpdateTableInput) {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
		},
		func(in *dynamodb.UpdateTableInput) { in.BillingMode = types.BillingModePayPerRequest },
		func(in *dynamodb.UpdateTableInput) { in.DeletionProtectionEnabled = aws.Bool(true) },
	}
	for _, u := range updates {
		mustUpdate(t, c, name, u)
	}
	d := mustDescribe(t, c, name)
	checks := []struct{ what, got, want string }{
		{"TableName", aws.ToString(d.TableName), name},
		{"TableArn", aws.ToString(d.TableArn), aws.ToString(first.TableArn)},
		{"TableId", aws.ToString(d.TableId), aws.ToString(first.TableId)},
		{"CreationDateTime", fmt.Sprint(d.CreationDateTime.UnixMilli()), fmt.Sprint(first.CreationDateTime.UnixMilli())},
		{"KeySchema", keySchemaString(d.KeySchema), "pk:HASH,sk:RANGE"},
		{"AttributeDefinitions", attrDefsString(d.AttributeDefinitions), "pk:S,sk:N"},
		{"TableStatus", string(d.TableStatus), "ACTIVE"},
		{"BillingMode", string(billingOf(d)), "PAY_PER_REQUEST"},
		{"ProvisionedThroughput", throughputOf(d), "0/0"},
		{"StreamViewType", string(d.StreamSpecification.StreamViewType), "NEW_IMAGE"},
		{"DeletionProtectionEnabled", fmt.Sprint(aws.ToBool(d.DeletionProtectionEnabled)), "true"},
	}
	if target(t).Oracle != OracleAWS { // AWS refreshes counts about every six hours
		checks = append(checks, struct{ what, got, want string }{"ItemCount", fmt.Sprint(aws.ToInt64(d.ItemCount)), "1"})
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.what, ch.got, ch.want)
		}
	}
	requireItem(t, mustGet(t, c, name, item{"pk": s("a"), "sk": n("1")}), item{"pk": s("a"), "sk": n("1"), "v": s("x")})
}

func TestDescribeLimitsValues(t *testing.T) {
	t.Parallel()
	// The answer is the same for every namespace and does not depend on tables.
	var answers []string
	for _, c := range []*dynamodb.Client{newClient(t), newClient(t, withAccessKey(uniqueKey(t)))} {
		out, err := c.DescribeLimits(ctx(t), &dynamodb.DescribeLimitsInput{})
		mustNoError(t, err)
		ar, aw := aws.ToInt64(out.AccountMaxReadCapacityUnits), aws.ToInt64(out.AccountMaxWriteCapacityUnits)
		tr, tw := aws.ToInt64(out.TableMaxReadCapacityUnits), aws.ToInt64(out.TableMaxWriteCapacityUnits)
		if tr <= 0 || tw <= 0 || ar < tr || aw < tw {
			t.Fatalf("limits account %d/%d, table %d/%d: want positive, account >= table", ar, aw, tr, tw)
		}
		answers = append(answers, fmt.Sprint(ar, aw, tr, tw))
	}
	if target(t).Oracle != OracleAWS && answers[0] != answers[1] {
		t.Fatalf("namespaces disagree: %v", answers)
	}

	// A table may be given the table maximum, not more.
	c := newClient(t)
	out, err := c.DescribeLimits(ctx(t), &dynamodb.DescribeLimitsInput{})
	mustNoError(t, err)
	if target(t).Oracle == OracleAWS {
		return // provisioning the maximum costs money
	}
	maxR, maxW := aws.ToInt64(out.TableMaxReadCapacityUnits), aws.ToInt64(out.TableMaxWriteCapacityUnits)
	name := provisionedTable(t, c, maxR, maxW)
	if got, want := throughputOf(mustDescribe(t, c, name)), fmt.Sprintf("%d/%d", maxR, maxW); got != want {
		t.Fatalf("throughput %s, want %s", got, want)
	}
}

func TestDescribeEndpointsAddress(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers UnknownOperationException to DescribeEndpoints")
	out, err := newClient(t).DescribeEndpoints(ctx(t), &dynamodb.DescribeEndpointsInput{})
	mustNoError(t, err)
	if len(out.Endpoints) != 1 || out.Endpoints[0].CachePeriodInMinutes != 1440 {
		t.Fatalf("Endpoints = %+v, want one, cached 1440 minutes", out.Endpoints)
	}
	addr := aws.ToString(out.Endpoints[0].Address)
	if strings.Contains(addr, "://") {
		t.Fatalf("Address %q has a scheme; AWS answers host names", addr)
	}
	// AWS answers its regional endpoint, which is the host its clients call; the emulator
	// answers the host the client called, so endpoint discovery stays on it.
	want := "dynamodb." + defaultRegion + ".amazonaws.com"
	if u := target(t).URL; u != "" {
		pu, err := url.Parse(u)
		mustNoError(t, err)
		want = pu.Host
	}
	if addr != want {
		t.Fatalf("Address = %q, want %q", addr, want)
	}
}

// TestListTablesPagingEdges pages a namespace of its own with every limit and start.
func TestListTablesPagingEdges(t *testing.T) {
	t.Parallel()
	if !isolatedNamespaces(t) {
		t.Skip("exact ListTables needs a namespace of its own (fake credentials)")
	}
	c := newClient(t, withAccessKey(uniqueKey(t)))
	list := func(limit int32, start string) ([]string, string) {
		t.Helper()
		in := &dynamodb.ListTablesInput{}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		if start != "" {
			in.ExclusiveStartTableName = aws.String(start)
		}
		out, err := c.ListTables(ctx(t), in)
		mustNoError(t, err)
		return out.TableNames, aws.ToString(out.LastEvaluatedTableName)
	}

	// An empty namespace, with any limit or start.
	for _, tc := range []struct {
		limit int32
		start string
	}{{0, ""}, {1, ""}, {100, ""}, {1, "abc"}, {0, strings.Repeat("z", 255)}} {
		if names, last := list(tc.limit, tc.start); len(names) != 0 || last != "" {
			t.Fatalf("empty namespace, limit %d start %q: %v, last %q", tc.limit, tc.start, names, last)
		}
	}

	var names []string
	for _, nm := range []string{"b-1", "B.2", "a_3", "A00", "b10", "b09", "_zz", "0-0"} {
		names = append(names, createTable(t, c, &dynamodb.CreateTableInput{TableName: aws.String(nm), KeySchema: ks("pk", "HASH"), AttributeDefinitions: ads("pk", "S")}))
	}
	sort.Strings(names) // UTF-8 byte order: '-' < '.' < digits < upper < '_' < lower

	// Limit 1 pages through every table, one at a time, following
	// LastEvaluatedTableName until it is absent.
	var all []string
	start := ""
	for i := 0; ; i++ {
		page, last := list(1, start)
		all = append(all, page...)
		if last == "" {
			break
		}
		if len(page) != 1 || last != page[0] {
			t.Fatalf("page %d: %v, last %q", i, page, last)
		}
		if i > len(names) {
			t.Fatalf("paging does not end: %v", all)
		}
		start = last
	}
	if fmt.Sprint(all) != fmt.Sprint(names) {
		t.Fatalf("limit 1 pages = %v, want %v", all, names)
	}

	tests := []struct {
		limit int32
		start string
		want  []string
		last  string
	}{
		{limit: 100, want: names},
		{limit: 8, want: names},
		{limit: 7, want: names[:7], last: names[6]},
		{start: "---", want: names},                  // before every name ("---" is the least valid name), need not exist
		{start: "0-0", want: names[1:]},              // the first name
		{start: names[7], want: nil},                 // the last name
		{start: "zzz", want: nil},                    // after every name
		{start: "b0-", want: []string{"b09", "b10"}}, // between names
		{start: "a_3", limit: 2, want: []string{"b-1", "b09"}, last: "b09"},
		{start: "A00", limit: 1, want: []string{"B.2"}, last: "B.2"}, // case matters: "A00" < "B.2" < "_zz" < "a_3"
	}
	for _, tc := range tests {
		got, last := list(tc.limit, tc.start)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || last != tc.last {
			t.Errorf("ListTables(limit %d, start %q) = %v, last %q; want %v, last %q", tc.limit, tc.start, got, last, tc.want, tc.last)
		}
	}

	// A deleted table's name still works as a start, and is not listed.
	deleteTable(t, c, "b09")
	if got, last := list(0, "b09"); fmt.Sprint(got) != "[b10]" || last != "" {
		t.Fatalf("start at deleted b09: %v, last %q", got, last)
	}
	if got, _ := list(0, "b-1"); fmt.Sprint(got) != "[b10]" {
		t.Fatalf("after deleting b09: %v", got)
	}

	// Bad starts and limits are refused whatever the namespace holds.
	for _, in := range []*dynamodb.ListTablesInput{
		{ExclusiveStartTableName: aws.String(strings.Repeat("a", 256))},
		{ExclusiveStartTableName: aws.String("ab")},
		{ExclusiveStartTableName: aws.String("a b")},
		{Limit: aws.Int32(-1)},
	} {
		_, err := c.ListTables(ctx(t), in)
		requireValidation(t, err, "")
	}
}
