package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// On-demand backups: CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup and RestoreTableFromBackup, after AWS's API reference
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateBackup.html,
// API_DescribeBackup, API_ListBackups, API_DeleteBackup,
// API_RestoreTableFromBackup). DynamoDB Local has none of these
// operations (UnknownOperationException), so every test here follows
// AWS and is skipped against it. Messages are checked where AWS's
// wording is on record; elsewhere only the error's type.

const backupsLacking = "DynamoDB Local has no backup operations (UnknownOperationException); AWS: API_CreateBackup, API_RestoreTableFromBackup"

// mustBackup creates a backup of table and deletes it when the test ends.
func mustBackup(t testing.TB, c *dynamodb.Client, table, name string) *types.BackupDetails {
	t.Helper()
	out, err := c.CreateBackup(ctx(t), &dynamodb.CreateBackupInput{TableName: &table, BackupName: &name})
	mustNoError(t, err)
	arn := *out.BackupDetails.BackupArn
	t.Cleanup(func() { _, _ = c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &arn}) })
	return out.BackupDetails
}

// waitBackup waits until the backup is AVAILABLE.
func waitBackup(t testing.TB, c *dynamodb.Client, arn string) {
	t.Helper()
	for i := 0; ; i++ {
		out, err := c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &arn})
		mustNoError(t, err)
		if out.BackupDescription.BackupDetails.BackupStatus == types.BackupStatusAvailable {
			return
		}
		if i > 600 {
			t.Fatalf("backup %s: still %s", arn, out.BackupDescription.BackupDetails.BackupStatus)
		}
		time.Sleep(time.Second)
	}
}

// TestBackupCreateDescribeRestore: a backup holds the table as it was
// (later writes are not in it), describes its source, and restores to a
// new table with the items, the indexes and the ARNs of the new name.
func TestBackupCreateDescribeRestore(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"})
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("color"), AttributeType: types.ScalarAttributeTypeS})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byColor"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("color"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	table := createTable(t, c, in)
	for i, color := range []string{"red", "blue", "red"} {
		mustPut(t, c, table, item{"pk": s("p"), "sk": n(string(rune('1' + i))), "color": s(color)})
	}
	bd := mustBackup(t, c, table, "nightly-1")
	arn := aws.ToString(bd.BackupArn)
	src := mustDescribe(t, c, table)
	if want := aws.ToString(src.TableArn) + "/backup/"; !strings.HasPrefix(arn, want) {
		t.Errorf("got BackupArn %q, want it under %q", arn, want)
	}
	if got, want := aws.ToString(bd.BackupName), "nightly-1"; got != want {
		t.Errorf("got BackupName %q, want %q", got, want)
	}
	if bd.BackupType != types.BackupTypeUser {
		t.Errorf("got BackupType %s, want USER", bd.BackupType)
	}
	// Written after the backup: not in it.
	mustPut(t, c, table, item{"pk": s("p"), "sk": n("9"), "color": s("red")})
	waitBackup(t, c, arn)

	desc, err := c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &arn})
	mustNoError(t, err)
	sd := desc.BackupDescription.SourceTableDetails
	if aws.ToString(sd.TableName) != table || aws.ToString(sd.TableArn) != aws.ToString(src.TableArn) || aws.ToString(sd.TableId) != aws.ToString(src.TableId) {
		t.Errorf("got source %s %s %s, want %s %s %s", aws.ToString(sd.TableName), aws.ToString(sd.TableArn), aws.ToString(sd.TableId), table, aws.ToString(src.TableArn), aws.ToString(src.TableId))
	}
	if got := aws.ToInt64(sd.ItemCount); got != 3 {
		t.Errorf("got source ItemCount %d, want 3", got)
	}
	if sd.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("got source BillingMode %s, want PAY_PER_REQUEST", sd.BillingMode)
	}
	if f := desc.BackupDescription.SourceTableFeatureDetails; f == nil || len(f.GlobalSecondaryIndexes) != 1 || aws.ToString(f.GlobalSecondaryIndexes[0].IndexName) != "byColor" {
		t.Errorf("got feature details %+v, want the GSI byColor", f)
	}

	target := uniqueName(t)
	out, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{TargetTableName: &target, BackupArn: &arn})
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, target) })
	td := out.TableDescription
	if rs := td.RestoreSummary; rs == nil || aws.ToString(rs.SourceBackupArn) != arn {
		t.Errorf("got RestoreSummary %+v, want SourceBackupArn %s", rs, arn)
	}
	waitActive(t, c, target)
	got := mustDescribe(t, c, target)
	if len(got.GlobalSecondaryIndexes) != 1 || !strings.HasSuffix(aws.ToString(got.GlobalSecondaryIndexes[0].IndexArn), "table/"+target+"/index/byColor") {
		t.Errorf("restored GSIs: got %+v, want byColor under the new table's ARN", got.GlobalSecondaryIndexes)
	}
	q, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &target, IndexName: aws.String("byColor"),
		KeyConditionExpression:    aws.String("color = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": s("red")}})
	mustNoError(t, err)
	if len(q.Items) != 2 {
		t.Errorf("restored index: got %d red items, want 2 (the one written after the backup is not in it)", len(q.Items))
	}
	sc, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &target})
	mustNoError(t, err)
	if len(sc.Items) != 3 {
		t.Errorf("restored table: got %d items, want 3", len(sc.Items))
	}

	// The target name is taken now.
	_, err = c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{TargetTableName: &target, BackupArn: &arn})
	requireAPIError(t, err, "TableAlreadyExistsException", "")
}

// waitActive waits until table is ACTIVE.
func waitActive(t testing.TB, c *dynamodb.Client, table string) {
	t.Helper()
	w := dynamodb.NewTableExistsWaiter(c)
	if err := w.Wait(ctx(t), &dynamodb.DescribeTableInput{TableName: &table}, 30*time.Minute); err != nil {
		t.Fatalf("wait for %s: %v", table, err)
	}
}

// TestBackupRestoreOverrides: the restored table takes the billing mode,
// throughput and index overrides; an index override that names no index
// of the backup is refused.
func TestBackupRestoreOverrides(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "S"})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("g1"), AttributeType: types.ScalarAttributeTypeS},
		types.AttributeDefinition{AttributeName: aws.String("l1"), AttributeType: types.ScalarAttributeTypeS})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		{IndexName: aws.String("idxA"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g1"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		{IndexName: aws.String("idxB"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("g1"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
	}
	in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{
		{IndexName: aws.String("lsiA"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("l1"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
	}
	table := createTable(t, c, in)
	mustPut(t, c, table, item{"pk": s("p"), "sk": s("1"), "g1": s("x"), "l1": s("y")})
	arn := aws.ToString(mustBackup(t, c, table, "with-overrides").BackupArn)
	waitBackup(t, c, arn)

	target := uniqueName(t)
	_, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{
		TargetTableName:               &target,
		BackupArn:                     &arn,
		BillingModeOverride:           types.BillingModeProvisioned,
		ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)},
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("idxB"), KeySchema: in.GlobalSecondaryIndexes[1].KeySchema, Projection: in.GlobalSecondaryIndexes[1].Projection,
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(6)},
		}},
		LocalSecondaryIndexOverride: []types.LocalSecondaryIndex{},
	})
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, target) })
	waitActive(t, c, target)
	d := mustDescribe(t, c, target)
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModeProvisioned {
		t.Errorf("got billing %+v, want PROVISIONED", d.BillingModeSummary)
	}
	if got := d.ProvisionedThroughput; aws.ToInt64(got.ReadCapacityUnits) != 3 || aws.ToInt64(got.WriteCapacityUnits) != 4 {
		t.Errorf("got throughput %d/%d, want 3/4", aws.ToInt64(got.ReadCapacityUnits), aws.ToInt64(got.WriteCapacityUnits))
	}
	if len(d.GlobalSecondaryIndexes) != 1 || aws.ToString(d.GlobalSecondaryIndexes[0].IndexName) != "idxB" {
		t.Fatalf("got GSIs %+v, want idxB alone", d.GlobalSecondaryIndexes)
	}
	if got := d.GlobalSecondaryIndexes[0].ProvisionedThroughput; aws.ToInt64(got.ReadCapacityUnits) != 5 || aws.ToInt64(got.WriteCapacityUnits) != 6 {
		t.Errorf("got idxB throughput %d/%d, want 5/6", aws.ToInt64(got.ReadCapacityUnits), aws.ToInt64(got.WriteCapacityUnits))
	}
	if len(d.LocalSecondaryIndexes) != 0 {
		t.Errorf("got LSIs %+v, want none", d.LocalSecondaryIndexes)
	}
	q, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &target, IndexName: aws.String("idxB"),
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("p")}})
	mustNoError(t, err)
	if len(q.Items) != 1 {
		t.Errorf("idxB of the restored table: got %d items, want 1", len(q.Items))
	}
	_, err = c.Query(ctx(t), &dynamodb.QueryInput{TableName: &target, IndexName: aws.String("idxA"),
		KeyConditionExpression: aws.String("g1 = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("x")}})
	if err == nil {
		t.Errorf("idxA of the restored table: got no error, want it gone")
	}
}

// TestBackupErrors: missing backups and tables, names out of AWS's
// model constraints, a target that exists.
func TestBackupErrors(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	missingTable := uniqueName(t)
	src := mustDescribe(t, c, table)
	missingArn := aws.ToString(src.TableArn) + "/backup/01700000000000-0badf00d"

	_, err := c.CreateBackup(ctx(t), &dynamodb.CreateBackupInput{TableName: &missingTable, BackupName: aws.String("backup1")})
	requireAPIError(t, err, "TableNotFoundException", "")
	_, err = c.CreateBackup(ctx(t), &dynamodb.CreateBackupInput{TableName: &table, BackupName: aws.String("x")})
	requireValidation(t, err, "1 validation error detected: Value 'x' at 'backupName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	_, err = c.CreateBackup(ctx(t), &dynamodb.CreateBackupInput{TableName: &table, BackupName: aws.String("bad name")})
	requireValidation(t, err, "1 validation error detected: Value 'bad name' at 'backupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")

	for _, op := range []struct {
		name string
		call func() error
	}{
		{"DescribeBackup", func() error {
			_, err := c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &missingArn})
			return err
		}},
		{"DeleteBackup", func() error {
			_, err := c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &missingArn})
			return err
		}},
		{"RestoreTableFromBackup", func() error {
			_, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{BackupArn: &missingArn, TargetTableName: &missingTable})
			return err
		}},
	} {
		t.Run(op.name, func(t *testing.T) {
			// AWS's wording, as a DescribeBackup answer recorded in
			// turbot/steampipe-plugin-aws#1913 shows it.
			requireAPIError(t, op.call(), "BackupNotFoundException", "Backup not found: "+missingArn)
		})
	}
	_, err = c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: aws.String("arn:short")})
	requireValidation(t, err, "1 validation error detected: Value 'arn:short' at 'backupArn' failed to satisfy constraint: Member must have length greater than or equal to 37")

	arn := aws.ToString(mustBackup(t, c, table, "to-delete").BackupArn)
	waitBackup(t, c, arn)
	del, err := c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &arn})
	mustNoError(t, err)
	if got := del.BackupDescription.BackupDetails.BackupStatus; got != types.BackupStatusDeleted {
		t.Errorf("DeleteBackup: got status %s, want DELETED", got)
	}
	_, err = c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &arn})
	requireAPIError(t, err, "BackupNotFoundException", "Backup not found: "+arn)
}

// TestListBackups: filtered by table, type and creation time, paged by
// Limit and LastEvaluatedBackupArn, in creation order.
func TestListBackups(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	t1, t2 := hashTable(t, c), hashTable(t, c)
	before := time.Now().Add(-time.Minute)
	var arns []string
	for i, table := range []string{t1, t1, t2, t1} {
		arns = append(arns, aws.ToString(mustBackup(t, c, table, "list-"+string(rune('a'+i))).BackupArn))
	}
	list := func(in *dynamodb.ListBackupsInput) (names []string, last string) {
		t.Helper()
		out, err := c.ListBackups(ctx(t), in)
		mustNoError(t, err)
		for _, b := range out.BackupSummaries {
			names = append(names, aws.ToString(b.BackupName))
		}
		return names, aws.ToString(out.LastEvaluatedBackupArn)
	}
	if got, _ := list(&dynamodb.ListBackupsInput{TableName: &t1}); strings.Join(got, ",") != "list-a,list-b,list-d" {
		t.Errorf("by table: got %v, want list-a,list-b,list-d", got)
	}
	if got, _ := list(&dynamodb.ListBackupsInput{TableName: &t2, BackupType: types.BackupTypeFilterAll}); strings.Join(got, ",") != "list-c" {
		t.Errorf("by table, ALL: got %v, want list-c", got)
	}
	if got, _ := list(&dynamodb.ListBackupsInput{TableName: &t1, BackupType: types.BackupTypeFilterSystem}); len(got) != 0 {
		t.Errorf("SYSTEM: got %v, want none", got)
	}
	if got, _ := list(&dynamodb.ListBackupsInput{TableName: &t1, TimeRangeUpperBound: &before}); len(got) != 0 {
		t.Errorf("created before a minute ago: got %v, want none", got)
	}
	if got, _ := list(&dynamodb.ListBackupsInput{TableName: &t1, TimeRangeLowerBound: &before}); len(got) != 3 {
		t.Errorf("created since a minute ago: got %v, want 3", got)
	}
	got, last := list(&dynamodb.ListBackupsInput{TableName: &t1, Limit: aws.Int32(2)})
	if strings.Join(got, ",") != "list-a,list-b" || last != arns[1] {
		t.Errorf("first page: got %v %q, want list-a,list-b %q", got, last, arns[1])
	}
	got, last = list(&dynamodb.ListBackupsInput{TableName: &t1, Limit: aws.Int32(2), ExclusiveStartBackupArn: &last})
	if strings.Join(got, ",") != "list-d" || last != "" {
		t.Errorf("second page: got %v %q, want list-d and no LastEvaluatedBackupArn", got, last)
	}
	_, err := c.ListBackups(ctx(t), &dynamodb.ListBackupsInput{Limit: aws.Int32(0)})
	requireValidation(t, err, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = c.ListBackups(ctx(t), &dynamodb.ListBackupsInput{Limit: aws.Int32(101)})
	requireValidation(t, err, "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
}
