package emulator_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// nsState renders what a test can see of the namespace: its tables,
// each with its TableId, status, items and byColor index contents.
func nsState(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	ctx := context.Background()
	lt, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, name := range lt.TableNames {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(name + " " + aws.ToString(d.Table.TableId) + " " + string(d.Table.TableStatus) + ": " + scanRender(t, c, name))
		for _, x := range d.Table.GlobalSecondaryIndexes {
			b.WriteString(" | " + aws.ToString(x.IndexName) + " red=" + indexRender(t, c, name, "red"))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestSnapshotRewind: fixtures loaded once, changed by a
// test in every way (items, tables created and deleted, a new index),
// and rewound: the namespace is as it was, as often as it is rewound,
// and its tables take writes again.
func TestSnapshotRewind(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	pitrTable(t, c, "fixtures")
	pitrTable(t, c, "other")
	put := func(table, pk, color string) {
		t.Helper()
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: pk}, "color": &types.AttributeValueMemberS{Value: color}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("fixtures", "a", "red")
	put("fixtures", "b", "blue")
	put("other", "x", "red")
	want := nsState(t, c)
	rewind := emulatortest.Checkpoint(t, e)

	for round := range 3 {
		put("fixtures", "a", "blue")
		put("fixtures", "c", "red")
		if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("fixtures"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "b"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("other")}); err != nil {
			t.Fatal(err)
		}
		pitrTable(t, c, "extra")
		put("extra", "e", "red")
		if got := nsState(t, c); got == want {
			t.Fatalf("round %d: the changes changed nothing", round)
		}
		rewind()
		if got := nsState(t, c); got != want {
			t.Errorf("round %d: after the rewind got\n%s\nwant\n%s", round, got, want)
		}
	}
	// The rewound tables take writes, and their indexes follow.
	put("other", "y", "red")
	if got, want := indexRender(t, c, "other", "red"), "x y"; got != want {
		t.Errorf("a write after the rewind: got red %q, want %q", got, want)
	}
}

// TestSnapshotAdminEndpoint: the same over HTTP, behind the admin guard
// (a POST without Content-Type application/json is refused), with 400
// for an unknown snapshot.
func TestSnapshotAdminEndpoint(t *testing.T) {
	url, _, c := emulatortest.NewServerWith(t, emulator.Options{})
	pitrTable(t, c, "fixtures")
	want := nsState(t, c)
	rewind := emulatortest.CheckpointURL(t, url)
	pitrTable(t, c, "extra")
	rewind()
	if got := nsState(t, c); got != want {
		t.Errorf("after the rewind got\n%s\nwant\n%s", got, want)
	}
	cases := []struct {
		name, method, path, contentType string
		want                            int
	}{
		{"no content type", http.MethodPost, adminpath.Snapshots, "", http.StatusUnsupportedMediaType},
		{"form", http.MethodPost, adminpath.Snapshots, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"unknown snapshot", http.MethodPost, adminpath.Snapshots + "/snap-99/restore", "application/json", http.StatusBadRequest},
		{"unknown snapshot dropped", http.MethodDelete, adminpath.Snapshots + "/snap-99", "application/json", http.StatusBadRequest},
	}
	for _, tc := range cases {
		req, err := http.NewRequest(tc.method, url+tc.path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, res.StatusCode, tc.want)
		}
	}
	lt, err := c.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lt.TableNames, []string{"fixtures"}) {
		t.Errorf("refused requests changed the tables: %v", lt.TableNames)
	}
}
