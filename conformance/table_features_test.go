package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The table-level features' operations, after AWS's API reference: resource-based
// policies (API_PutResourcePolicy, API_GetResourcePolicy,
// API_DeleteResourcePolicy), Kinesis streaming destinations
// (API_EnableKinesisStreamingDestination, API_DescribeKinesisStreamingDestination,
// API_UpdateKinesisStreamingDestination, API_DisableKinesisStreamingDestination),
// replica auto scaling (API_DescribeTableReplicaAutoScaling,
// API_UpdateTableReplicaAutoScaling), exports and imports
// (API_ExportTableToPointInTime, API_DescribeExport, API_ListExports,
// API_ImportTable, API_DescribeImport, API_ListImports) and global tables
// (API_UpdateTable ReplicaUpdates, API_CreateGlobalTable,
// API_DescribeGlobalTable, API_ListGlobalTables, API_UpdateGlobalTable,
// API_DescribeGlobalTableSettings, API_UpdateGlobalTableSettings).
// DynamoDB Local 3.3.0 answers every one of them with
// UnknownOperationException, so each test follows AWS and is skipped
// against it. Against AWS, the export test needs the bucket it names and
// the global table tests need the regions; the emulator's transient
// states last no time by default, AWS's do, so the tests wait for them.

// lacking is the AWSDiffers reason of a family DynamoDB Local does not have.
func lacking(what, ref string) string {
	return "DynamoDB Local has no " + what + " (UnknownOperationException); AWS: " + ref
}

// eventually polls f until it reports true, for AWS's asynchronous states.
func eventually(t testing.TB, what string, f func() bool) {
	t.Helper()
	for i := 0; !f(); i++ {
		if i > 300 {
			t.Fatalf("%s: not reached after 5 minutes", what)
		}
		time.Sleep(time.Second)
	}
}

// TestResourcePolicyLifecycle: put (with ExpectedRevisionId NO_POLICY),
// get, idempotent put, a stale revision refused, delete.
func TestResourcePolicyLifecycle(t *testing.T) {
	AWSDiffers(t, lacking("resource-based policies", "API_PutResourcePolicy"))
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	arn := aws.ToString(mustDescribe(t, c, table).TableArn)
	_, err := c.GetResourcePolicy(ctx(t), &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
	requireAPIError(t, err, "PolicyNotFoundException", "")
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"dynamodb:GetItem","Resource":"` + arn + `"}]}`
	put, err := c.PutResourcePolicy(ctx(t), &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &policy, ExpectedRevisionId: aws.String("NO_POLICY")})
	mustNoError(t, err)
	rev := aws.ToString(put.RevisionId)
	if rev == "" {
		t.Fatalf("PutResourcePolicy: no RevisionId")
	}
	var got *dynamodb.GetResourcePolicyOutput
	eventually(t, "policy readable", func() bool {
		got, err = c.GetResourcePolicy(ctx(t), &dynamodb.GetResourcePolicyInput{ResourceArn: &arn})
		return err == nil
	})
	if aws.ToString(got.RevisionId) != rev {
		t.Errorf("GetResourcePolicy: got RevisionId %q, want %q", aws.ToString(got.RevisionId), rev)
	}
	again, err := c.PutResourcePolicy(ctx(t), &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: &policy})
	mustNoError(t, err)
	if aws.ToString(again.RevisionId) != rev {
		t.Errorf("same document again: got RevisionId %q, want %q (AWS: idempotent)", aws.ToString(again.RevisionId), rev)
	}
	_, err = c.DeleteResourcePolicy(ctx(t), &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn, ExpectedRevisionId: aws.String("1")})
	requireAPIError(t, err, "PolicyNotFoundException", "")
	del, err := c.DeleteResourcePolicy(ctx(t), &dynamodb.DeleteResourcePolicyInput{ResourceArn: &arn, ExpectedRevisionId: &rev})
	mustNoError(t, err)
	if aws.ToString(del.RevisionId) != rev {
		t.Errorf("DeleteResourcePolicy: got RevisionId %q, want %q", aws.ToString(del.RevisionId), rev)
	}
	_, err = c.PutResourcePolicy(ctx(t), &dynamodb.PutResourcePolicyInput{ResourceArn: &arn, Policy: aws.String("{not json")})
	requireValidation(t, err, "")
}

// TestKinesisStreamingDestination: enable (ENABLING, then ACTIVE),
// describe, update the precision, disable (DISABLING, then DISABLED).
func TestKinesisStreamingDestination(t *testing.T) {
	AWSDiffers(t, lacking("Kinesis streaming destinations", "API_EnableKinesisStreamingDestination"))
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	stream := "arn:aws:kinesis:us-east-1:000000000000:stream/" + strings.ReplaceAll(table, ".", "-")
	status := func() types.DestinationStatus {
		out, err := c.DescribeKinesisStreamingDestination(ctx(t), &dynamodb.DescribeKinesisStreamingDestinationInput{TableName: &table})
		mustNoError(t, err)
		for _, d := range out.KinesisDataStreamDestinations {
			if aws.ToString(d.StreamArn) == stream {
				return d.DestinationStatus
			}
		}
		return ""
	}
	if got := status(); got != "" {
		t.Errorf("new table: got destination %s, want none", got)
	}
	en, err := c.EnableKinesisStreamingDestination(ctx(t), &dynamodb.EnableKinesisStreamingDestinationInput{TableName: &table, StreamArn: &stream})
	mustNoError(t, err)
	if en.DestinationStatus != types.DestinationStatusEnabling {
		t.Errorf("enable: got %s, want ENABLING", en.DestinationStatus)
	}
	eventually(t, "ACTIVE", func() bool { return status() == types.DestinationStatusActive })
	up, err := c.UpdateKinesisStreamingDestination(ctx(t), &dynamodb.UpdateKinesisStreamingDestinationInput{TableName: &table, StreamArn: &stream,
		UpdateKinesisStreamingConfiguration: &types.UpdateKinesisStreamingConfiguration{ApproximateCreationDateTimePrecision: types.ApproximateCreationDateTimePrecisionMicrosecond}})
	mustNoError(t, err)
	if up.DestinationStatus != types.DestinationStatusUpdating {
		t.Errorf("update: got %s, want UPDATING", up.DestinationStatus)
	}
	eventually(t, "ACTIVE after update", func() bool { return status() == types.DestinationStatusActive })
	dis, err := c.DisableKinesisStreamingDestination(ctx(t), &dynamodb.DisableKinesisStreamingDestinationInput{TableName: &table, StreamArn: &stream})
	mustNoError(t, err)
	if dis.DestinationStatus != types.DestinationStatusDisabling {
		t.Errorf("disable: got %s, want DISABLING", dis.DestinationStatus)
	}
	eventually(t, "DISABLED", func() bool { return status() == types.DestinationStatusDisabled })
	_, err = c.EnableKinesisStreamingDestination(ctx(t), &dynamodb.EnableKinesisStreamingDestinationInput{TableName: aws.String(table + "-none"), StreamArn: &stream})
	requireAPIError(t, err, "ResourceNotFoundException", "")
}

// TestReplicaAutoScalingSettings: a provisioned table's write auto
// scaling set and described for its replica (its own region).
func TestReplicaAutoScalingSettings(t *testing.T) {
	AWSDiffers(t, lacking("replica auto scaling", "API_UpdateTableReplicaAutoScaling"))
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	table := createTable(t, c, in)
	out, err := c.UpdateTableReplicaAutoScaling(ctx(t), &dynamodb.UpdateTableReplicaAutoScalingInput{TableName: &table,
		ProvisionedWriteCapacityAutoScalingUpdate: &types.AutoScalingSettingsUpdate{MinimumUnits: aws.Int64(5), MaximumUnits: aws.Int64(20),
			ScalingPolicyUpdate: &types.AutoScalingPolicyUpdate{TargetTrackingScalingPolicyConfiguration: &types.AutoScalingTargetTrackingScalingPolicyConfigurationUpdate{TargetValue: aws.Float64(70)}}}})
	mustNoError(t, err)
	if n := len(out.TableAutoScalingDescription.Replicas); n != 1 {
		t.Fatalf("got %d replicas, want the table's own region", n)
	}
	d, err := c.DescribeTableReplicaAutoScaling(ctx(t), &dynamodb.DescribeTableReplicaAutoScalingInput{TableName: &table})
	mustNoError(t, err)
	w := d.TableAutoScalingDescription.Replicas[0].ReplicaProvisionedWriteCapacityAutoScalingSettings
	if w == nil || aws.ToInt64(w.MinimumUnits) != 5 || aws.ToInt64(w.MaximumUnits) != 20 {
		t.Errorf("write auto scaling: got %+v, want 5..20", w)
	}
}

// TestExportImportTable: a table exported to S3 and imported from the
// export's data files is the same table; both are described and listed.
func TestExportImportTable(t *testing.T) {
	AWSDiffers(t, lacking("exports and imports", "API_ExportTableToPointInTime, API_ImportTable"))
	t.Parallel()
	c := newClient(t)
	x := exportTable(t, c)
	src, want, exportArn, desc := x.src, x.want, x.arn, x.desc
	if desc.ExportStatus != types.ExportStatusCompleted || aws.ToInt64(desc.ItemCount) != 3 {
		t.Fatalf("export: got %s with %d items (%s), want COMPLETED with 3", desc.ExportStatus, aws.ToInt64(desc.ItemCount), aws.ToString(desc.FailureMessage))
	}
	list, err := c.ListExports(ctx(t), &dynamodb.ListExportsInput{TableArn: src.TableArn})
	mustNoError(t, err)
	if len(list.ExportSummaries) != 1 || aws.ToString(list.ExportSummaries[0].ExportArn) != aws.ToString(exportArn) {
		t.Errorf("ListExports: got %+v", list.ExportSummaries)
	}
	dst := uniqueName(t)
	t.Cleanup(func() { deleteTable(t, c, dst) })
	im, err := c.ImportTable(ctx(t), &dynamodb.ImportTableInput{
		S3BucketSource:       &types.S3BucketSource{S3Bucket: aws.String("dynamoemu-conformance"), S3KeyPrefix: aws.String(x.dataPrefix())},
		InputFormat:          types.InputFormatDynamodbJson,
		InputCompressionType: types.InputCompressionTypeGzip,
		TableCreationParameters: &types.TableCreationParameters{TableName: &dst, BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: src.AttributeDefinitions, KeySchema: src.KeySchema},
	})
	mustNoError(t, err)
	eventually(t, "import COMPLETED", func() bool {
		out, err := c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: im.ImportTableDescription.ImportArn})
		mustNoError(t, err)
		return out.ImportTableDescription.ImportStatus != types.ImportStatusInProgress
	})
	out, err := c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: im.ImportTableDescription.ImportArn})
	mustNoError(t, err)
	if d := out.ImportTableDescription; d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 3 || d.ErrorCount != 0 {
		t.Errorf("import: got %s, %d imported, %d errors; want COMPLETED, 3, 0", d.ImportStatus, d.ImportedItemCount, d.ErrorCount)
	}
	imports, err := c.ListImports(ctx(t), &dynamodb.ListImportsInput{TableArn: im.ImportTableDescription.TableArn})
	mustNoError(t, err)
	if len(imports.ImportSummaryList) != 1 {
		t.Errorf("ListImports: got %+v", imports.ImportSummaryList)
	}
	scan, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &dst, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	requireItems(t, scan.Items, want)
	_, err = c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: aws.String(aws.ToString(src.TableArn) + "/export/01234567890123-abcdef01")})
	requireAPIError(t, err, "ExportNotFoundException", "")
}

// TestGlobalTableReplica: a replica added by UpdateTable in another
// region has the table's items and receives its later writes;
// DescribeTable lists it; deleting it removes it.
func TestGlobalTableReplica(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_UpdateTable (ReplicaUpdates)"))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	west := newClient(t, withAccessKey(key), withRegion("eu-west-1"))
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	table := createTable(t, east, in)
	mustPut(t, east, table, item{"pk": s("before"), "v": n("1")})
	_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
	mustNoError(t, err)
	t.Cleanup(func() {
		_, _ = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
			ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
	})
	eventually(t, "replica ACTIVE", func() bool {
		d := mustDescribe(t, east, table)
		return len(d.Replicas) == 1 && d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive
	})
	if v := aws.ToString(mustDescribe(t, east, table).GlobalTableVersion); v != "2019.11.21" {
		t.Errorf("got GlobalTableVersion %q, want 2019.11.21", v)
	}
	requireItem(t, mustGet(t, west, table, item{"pk": s("before")}), item{"pk": s("before"), "v": n("1")})
	mustPut(t, east, table, item{"pk": s("after"), "v": n("2")})
	eventually(t, "write replicated", func() bool {
		out, err := west.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s("after")}, ConsistentRead: aws.Bool(true)})
		mustNoError(t, err)
		return out.Item != nil
	})
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
	requireValidation(t, err, "")
}

// TestLegacyGlobalTable: the 2017.11.29 operations over tables made in
// two regions: Create, Describe, List, the settings, UpdateGlobalTable.
func TestLegacyGlobalTable(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_CreateGlobalTable, API_UpdateGlobalTableSettings"))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	west := newClient(t, withAccessKey(key), withRegion("us-west-2"))
	name := uniqueName(t)
	for _, c := range []*dynamodb.Client{east, west} {
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.TableName = aws.String(name)
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
		createTable(t, c, in)
	}
	out, err := east.CreateGlobalTable(ctx(t), &dynamodb.CreateGlobalTableInput{GlobalTableName: &name,
		ReplicationGroup: []types.Replica{{RegionName: aws.String("us-east-1")}, {RegionName: aws.String("us-west-2")}}})
	mustNoError(t, err)
	if n := len(out.GlobalTableDescription.ReplicationGroup); n != 2 {
		t.Errorf("CreateGlobalTable: got %d replicas, want 2", n)
	}
	_, err = east.CreateGlobalTable(ctx(t), &dynamodb.CreateGlobalTableInput{GlobalTableName: &name,
		ReplicationGroup: []types.Replica{{RegionName: aws.String("us-east-1")}}})
	requireAPIError(t, err, "GlobalTableAlreadyExistsException", "")
	d, err := west.DescribeGlobalTable(ctx(t), &dynamodb.DescribeGlobalTableInput{GlobalTableName: &name})
	mustNoError(t, err)
	if d.GlobalTableDescription.GlobalTableStatus != types.GlobalTableStatusActive && d.GlobalTableDescription.GlobalTableStatus != types.GlobalTableStatusCreating {
		t.Errorf("DescribeGlobalTable: got %s", d.GlobalTableDescription.GlobalTableStatus)
	}
	lst, err := east.ListGlobalTables(ctx(t), &dynamodb.ListGlobalTablesInput{})
	mustNoError(t, err)
	found := false
	for _, g := range lst.GlobalTables {
		found = found || aws.ToString(g.GlobalTableName) == name
	}
	if !found {
		t.Errorf("ListGlobalTables: %s not listed", name)
	}
	st, err := east.DescribeGlobalTableSettings(ctx(t), &dynamodb.DescribeGlobalTableSettingsInput{GlobalTableName: &name})
	mustNoError(t, err)
	if len(st.ReplicaSettings) != 2 {
		t.Errorf("DescribeGlobalTableSettings: got %d replicas, want 2", len(st.ReplicaSettings))
	}
	_, err = east.UpdateGlobalTableSettings(ctx(t), &dynamodb.UpdateGlobalTableSettingsInput{GlobalTableName: &name,
		ReplicaSettingsUpdate: []types.ReplicaSettingsUpdate{{RegionName: aws.String("sa-east-1"), ReplicaProvisionedReadCapacityUnits: aws.Int64(1)}}})
	requireAPIError(t, err, "ReplicaNotFoundException", "")
	_, err = east.UpdateGlobalTable(ctx(t), &dynamodb.UpdateGlobalTableInput{GlobalTableName: &name,
		ReplicaUpdates: []types.ReplicaUpdate{{Create: &types.CreateReplicaAction{RegionName: aws.String("us-west-2")}}}})
	requireAPIError(t, err, "ReplicaAlreadyExistsException", "")
	_, err = east.DescribeGlobalTable(ctx(t), &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String(name + "-none")})
	requireAPIError(t, err, "GlobalTableNotFoundException", "")
}
