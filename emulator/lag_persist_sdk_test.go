package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// gsiTable creates a table keyed by pk with a GSI byG on g (all
// attributes projected).
func gsiTable(t *testing.T, db *dynamodb.Client, name string) {
	t.Helper()
	str := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{str("pk"), str("g")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPersistLagsSDK: with a data directory, lags set at run
// time (a GSI held, a table's eventually consistent reads and its stream
// delayed) keep their modes across a restart; what the held GSI held back
// when the emulator stopped is visible after it, and what is written
// after it is held. A lag set back to lag nothing, and lags of a deleted table, are
// not back. Lags given at start replace the saved ones.
func TestPersistLagsSDK(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const ak = "AKIDPERSISTLAG"
	open := func(opts emulator.Options) (*emulator.Emulator, *dynamodb.Client) {
		t.Helper()
		opts.DataDir, opts.Clock = dir, stillClock
		e, err := emulator.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e, emulatortest.Client(t, e, ak)
	}
	closeE := func(e *emulator.Emulator) {
		t.Helper()
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	put := func(db *dynamodb.Client, table, pk string) {
		t.Helper()
		it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "g": &types.AttributeValueMemberS{Value: "x"}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	inIndex := func(db *dynamodb.Client) int {
		t.Helper()
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), IndexName: aws.String("byG")})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Items)
	}
	found := func(db *dynamodb.Client, pk string, consistent bool) bool {
		t.Helper()
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), ConsistentRead: aws.Bool(consistent),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item != nil
	}

	e, db := open(emulator.Options{})
	for _, name := range []string{"tbl", "off", "gone"} {
		gsiTable(t, db, name)
	}
	put(db, "tbl", "a")
	if _, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
		t.Fatal(err)
	}
	emulatortest.StreamLag(t, e, db, "tbl").SetDelay(2 * time.Second)
	emulatortest.IndexLag(t, e, db, "tbl", "byG").Hold()
	emulatortest.ReadLag(t, e, db, "tbl").SetDelay(time.Hour)
	off := emulatortest.ReadLag(t, e, db, "off")
	off.SetDelay(time.Minute)
	off.SetDelay(0) // lags nothing: not saved
	emulatortest.IndexLag(t, e, db, "gone", "byG").Hold()
	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("gone")}); err != nil {
		t.Fatal(err)
	}
	put(db, "tbl", "b") // held back from byG
	if got := inIndex(db); got != 1 {
		t.Fatalf("byG before the restart: got %d items, want 1 (b held back)", got)
	}
	closeE(e)

	e, db = open(emulator.Options{})
	if got := inIndex(db); got != 2 {
		t.Errorf("byG after a restart: got %d items, want 2 (what was held comes back visible)", got)
	}
	put(db, "tbl", "c")
	if got := inIndex(db); got != 2 {
		t.Errorf("byG after a restart and a put: got %d items, want 2 (c held back: the GSI is still held)", got)
	}
	if found(db, "c", false) || !found(db, "c", true) {
		t.Errorf("GetItem of c after a restart: got eventual %v, consistent %v; want false, true (reads still delayed an hour)",
			found(db, "c", false), found(db, "c", true))
	}
	if !found(db, "b", false) {
		t.Errorf("an eventually consistent GetItem of b (written before the restart): got not found, want found")
	}
	type mode struct {
		delay time.Duration
		held  bool
	}
	for _, c := range []struct {
		name string
		got  func() (time.Duration, bool)
		want mode
	}{
		{"tbl byG", emulatortest.IndexLag(t, e, db, "tbl", "byG").Settings, mode{0, true}},
		{"tbl reads", emulatortest.ReadLag(t, e, db, "tbl").Settings, mode{time.Hour, false}},
		{"tbl stream", emulatortest.StreamLag(t, e, db, "tbl").Settings, mode{2 * time.Second, false}},
		{"off reads", emulatortest.ReadLag(t, e, db, "off").Settings, mode{}},
	} {
		d, h := c.got()
		if (mode{d, h}) != c.want {
			t.Errorf("%s after a restart: got %+v, want %+v", c.name, mode{d, h}, c.want)
		}
	}
	gsiTable(t, db, "gone")
	if d, h := emulatortest.IndexLag(t, e, db, "gone", "byG").Settings(); d != 0 || h {
		t.Errorf("the GSI of a table deleted before the restart, made again: got (%v, %v), want no lag", d, h)
	}
	closeE(e)

	// Lags given at start replace the saved ones.
	e, db = open(emulator.Options{Faults: emulator.FaultOptions{Lags: []emulator.LagSetting{{Table: "off", Reads: true, Delay: time.Second}}}})
	if d, h := emulatortest.IndexLag(t, e, db, "tbl", "byG").Settings(); d != 0 || h {
		t.Errorf("tbl byG after a restart with lags given: got (%v, %v), want no lag", d, h)
	}
	if d, _ := emulatortest.ReadLag(t, e, db, "off").Settings(); d != time.Second {
		t.Errorf("off's reads after a restart with lags given: got %v, want the given 1s", d)
	}
}
