package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// pitrTable creates table name (pk S, GSI byColor on color) in c.
func pitrTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            &name,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("color"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byColor"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("color"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// scanRender renders every item of table as "pk=color" in pk order.
func scanRender(t *testing.T, c *dynamodb.Client, table string) string {
	t.Helper()
	out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: &table})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Items {
		got = append(got, it["pk"].(*types.AttributeValueMemberS).Value+"="+it["color"].(*types.AttributeValueMemberS).Value)
	}
	slices.Sort(got)
	return strings.Join(got, " ")
}

// indexRender renders the pks the byColor index holds under color.
func indexRender(t *testing.T, c *dynamodb.Client, table, color string) string {
	t.Helper()
	out, err := c.Query(context.Background(), &dynamodb.QueryInput{
		TableName: &table, IndexName: aws.String("byColor"),
		KeyConditionExpression:    aws.String("color = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: color}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Items {
		got = append(got, it["pk"].(*types.AttributeValueMemberS).Value)
	}
	slices.Sort(got)
	return strings.Join(got, " ")
}

// TestRestoreToPointInTimeBetweenWrites: the test moves the
// emulator's clock between writes and restores to instants between them:
// each restored table holds exactly the items of that instant, and its
// index answers for them.
func TestRestoreToPointInTimeBetweenWrites(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	pitrTable(t, c, "src")
	put := func(pk, color string) {
		t.Helper()
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("src"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: pk}, "color": &types.AttributeValueMemberS{Value: color}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("before", "red") // written before recovery is enabled: in the base
	_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	advance := func(d time.Duration) time.Time {
		t.Helper()
		now, err := e.Clock().Advance(d)
		if err != nil {
			t.Fatal(err)
		}
		return now
	}
	t0 := advance(10 * time.Second)
	put("a", "red")
	put("b", "blue")
	t1 := advance(10 * time.Second)
	put("a", "blue") // a changes color: it moves in the index
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("src"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "before"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Put: &types.Put{
		TableName: aws.String("src"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "c"}, "color": &types.AttributeValueMemberS{Value: "red"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	advance(10 * time.Second)

	cases := []struct {
		name      string
		at        time.Time
		latest    bool
		items     string
		red, blue string
	}{
		{"before the first write", t0.Add(-5 * time.Second), false, "before=red", "before", ""},
		{"between the first writes and the second", t0.Add(5 * time.Second), false, "a=red b=blue before=red", "a before", "b"},
		{"after the second", t1.Add(5 * time.Second), false, "a=blue b=blue c=red", "c", "a b"},
		{"latest", time.Time{}, true, "a=blue b=blue c=red", "c", "a b"},
	}
	for i, tc := range cases {
		target := "restored" + string(rune('0'+i))
		in := &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("src"), TargetTableName: &target}
		if tc.latest {
			in.UseLatestRestorableTime = aws.Bool(true)
		} else {
			in.RestoreDateTime = aws.Time(tc.at)
		}
		out, err := c.RestoreTableToPointInTime(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := out.TableDescription.TableStatus; got != types.TableStatusActive {
			t.Errorf("%s: got status %s, want ACTIVE", tc.name, got)
		}
		if got := scanRender(t, c, target); got != tc.items {
			t.Errorf("%s: got items %q, want %q", tc.name, got, tc.items)
		}
		if got := indexRender(t, c, target, "red"); got != tc.red {
			t.Errorf("%s: got red %q, want %q", tc.name, got, tc.red)
		}
		if got := indexRender(t, c, target, "blue"); got != tc.blue {
			t.Errorf("%s: got blue %q, want %q", tc.name, got, tc.blue)
		}
	}
	if got, want := scanRender(t, c, "src"), "a=blue b=blue c=red"; got != want {
		t.Errorf("source: got %q, want %q", got, want)
	}
}

// TestPITRWindowRollsForward: with a recovery period of one day and the
// clock moving 30 minutes per batch of 25 writes for 60 hours, the log
// folds the writes that leave the window into its base, the earliest
// restorable time follows the clock, and a restore to any instant inside
// the window holds that instant's items: every key written up to then,
// and the "hot" key's value of then.
func TestPITRWindowRollsForward(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	pitrTable(t, c, "src")
	_, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("src"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(1)}})
	if err != nil {
		t.Fatal(err)
	}
	const batches = 120
	var times []time.Time // times[i]: just after batch i
	for i := range batches {
		var reqs []types.WriteRequest
		for j := range 24 {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("k%03d-%02d", i, j)}, "color": &types.AttributeValueMemberS{Value: "red"}}}})
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "hot"}, "color": &types.AttributeValueMemberS{Value: fmt.Sprint("v", i)}}}})
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"src": reqs}})
		if err != nil || len(out.UnprocessedItems) > 0 {
			t.Fatalf("batch %d: %v %v", i, err, out.UnprocessedItems)
		}
		now, err := e.Clock().Advance(30 * time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, now.Add(-15*time.Minute))
	}
	d, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("src")})
	if err != nil {
		t.Fatal(err)
	}
	pd := d.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	if got, want := pd.LatestRestorableDateTime.Sub(*pd.EarliestRestorableDateTime), 24*time.Hour; got != want {
		t.Errorf("window: got %v, want %v", got, want)
	}
	for _, i := range []int{batches - 47, batches - 30, batches - 1} {
		target := fmt.Sprint("at", i)
		_, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("src"), TargetTableName: &target, RestoreDateTime: aws.Time(times[i])})
		if err != nil {
			t.Fatalf("restore to after batch %d: %v", i, err)
		}
		desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &target})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := aws.ToInt64(desc.Table.ItemCount), int64(24*(i+1)+1); got != want {
			t.Errorf("after batch %d: got %d items, want %d", i, got, want)
		}
		g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &target, Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "hot"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := g.Item["color"].(*types.AttributeValueMemberS).Value, fmt.Sprint("v", i); got != want {
			t.Errorf("after batch %d: got hot=%s, want %s", i, got, want)
		}
	}
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("src"), TargetTableName: aws.String("tooEarly"), RestoreDateTime: aws.Time(times[batches-50])})
	var inv *types.InvalidRestoreTimeException
	if !errors.As(err, &inv) {
		t.Errorf("restore to before the window: got %v, want InvalidRestoreTimeException", err)
	}
}

// TestSystemBackupOfDeletedTable: deleting a table with point-in-time
// recovery keeps a SYSTEM backup named <table>$DeletedTableBackup for 35
// days (AWS's developer guide), listed with BackupType SYSTEM or ALL
// only, restorable, and gone once the clock passes its expiry.
func TestSystemBackupOfDeletedTable(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	pitrTable(t, c, "gone")
	pitrTable(t, c, "plain")
	for _, name := range []string{"gone", "plain"} {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "a"}, "color": &types.AttributeValueMemberS{Value: "red"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("gone"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gone", "plain"} {
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	list := func(typ types.BackupTypeFilter) []types.BackupSummary {
		t.Helper()
		out, err := c.ListBackups(ctx, &dynamodb.ListBackupsInput{BackupType: typ})
		if err != nil {
			t.Fatal(err)
		}
		return out.BackupSummaries
	}
	if got := list(""); len(got) != 0 {
		t.Errorf("USER backups: got %d, want none", len(got))
	}
	got := list(types.BackupTypeFilterAll)
	if len(got) != 1 {
		t.Fatalf("ALL backups: got %d, want the one SYSTEM backup", len(got))
	}
	b := got[0]
	if aws.ToString(b.BackupName) != "gone$DeletedTableBackup" || b.BackupType != types.BackupTypeSystem || aws.ToString(b.TableName) != "gone" {
		t.Errorf("got %s %s of %s, want gone$DeletedTableBackup SYSTEM of gone", aws.ToString(b.BackupName), b.BackupType, aws.ToString(b.TableName))
	}
	if b.BackupExpiryDateTime == nil || b.BackupExpiryDateTime.Sub(*b.BackupCreationDateTime) != 35*24*time.Hour {
		t.Errorf("got expiry %v for a backup of %v, want 35 days later", b.BackupExpiryDateTime, b.BackupCreationDateTime)
	}
	if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: b.BackupArn, TargetTableName: aws.String("back")}); err != nil {
		t.Fatal(err)
	}
	if got := scanRender(t, c, "back"); got != "a=red" {
		t.Errorf("restored: got %q, want a=red", got)
	}
	if _, err := e.Clock().Advance(35*24*time.Hour + time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: b.BackupArn})
	var nf *types.BackupNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("after 35 days: got %v, want BackupNotFoundException", err)
	}
}
