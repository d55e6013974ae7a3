package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCrashBackups kills the server mid-backup: the server with -dbPath
// takes an on-demand backup, a SYSTEM backup (a table with point-in-time
// recovery deleted) and a point-in-time history of writes, and is killed
// with SIGKILL; restarted on the same directory it lists the same
// backups, restores them, and restores the table to the instant after
// each write before the kill with exactly that instant's items, its GSI
// included.
func TestCrashBackups(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	c := startChild(t, "-dbPath", dir)
	cl := newClient(c.url)
	must := func(op, body string, out any) {
		t.Helper()
		if err := cl.call(ctx, op, body, out); err != nil {
			c.kill()
			t.Fatalf("%s %s: %v", op, body, err)
		}
	}
	render := func(table, index string) string {
		t.Helper()
		items, err := cl.scanAll(ctx, table, index)
		if err != nil {
			c.kill()
			t.Fatalf("Scan %s %s: %v", table, index, err)
		}
		var got []string
		for _, it := range items {
			got = append(got, fmt.Sprint(it["pk"]["S"], "=", it["v"]["S"]))
		}
		slices.Sort(got)
		return strings.Join(got, ",")
	}
	const tableBody = `{"TableName":"%s","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"v","AttributeType":"S"}],` +
		`"GlobalSecondaryIndexes":[{"IndexName":"byV","KeySchema":[{"AttributeName":"v","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],` +
		`"BillingMode":"PAY_PER_REQUEST"}`
	for _, name := range []string{"src", "gone"} {
		must("CreateTable", fmt.Sprintf(tableBody, name), nil)
		must("UpdateContinuousBackups", `{"TableName":"`+name+`","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`, nil)
	}
	must("PutItem", `{"TableName":"gone","Item":{"pk":{"S":"g"},"v":{"S":"1"}}}`, nil)

	type point struct {
		at         float64 // epoch seconds, after the write's answer and before the next write
		items, gsi string
	}
	var points []point
	writes := []string{
		`PutItem {"TableName":"src","Item":{"pk":{"S":"a"},"v":{"S":"1"}}}`,
		`PutItem {"TableName":"src","Item":{"pk":{"S":"b"},"v":{"S":"2"}}}`,
		`UpdateItem {"TableName":"src","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"2"}}}`,
		`DeleteItem {"TableName":"src","Key":{"pk":{"S":"b"}}}`,
		`TransactWriteItems {"TransactItems":[{"Put":{"TableName":"src","Item":{"pk":{"S":"c"},"v":{"S":"3"}}}},{"Put":{"TableName":"src","Item":{"pk":{"S":"d"},"v":{"S":"3"}}}}]}`,
	}
	var backupARN string
	for i, w := range writes {
		op, body, _ := strings.Cut(w, " ")
		must(op, body, nil)
		time.Sleep(20 * time.Millisecond)
		points = append(points, point{float64(time.Now().UnixMilli()) / 1000, render("src", ""), render("src", "byV")})
		time.Sleep(20 * time.Millisecond)
		if i == 2 {
			var out struct{ BackupDetails struct{ BackupArn string } }
			must("CreateBackup", `{"TableName":"src","BackupName":"before-delete"}`, &out)
			backupARN = out.BackupDetails.BackupArn
		}
	}
	must("DeleteTable", `{"TableName":"gone"}`, nil)
	var before json.RawMessage
	must("ListBackups", `{"BackupType":"ALL"}`, &before)
	c.kill()

	c = startChild(t, "-dbPath", dir)
	defer c.stop(t)
	cl = newClient(c.url)
	var after json.RawMessage
	must("ListBackups", `{"BackupType":"ALL"}`, &after)
	if string(after) != string(before) {
		t.Errorf("ListBackups after the kill:\ngot  %s\nwant %s", after, before)
	}
	must("RestoreTableFromBackup", `{"BackupArn":"`+backupARN+`","TargetTableName":"fromBackup"}`, nil)
	if got, want := render("fromBackup", ""), points[2].items; got != want {
		t.Errorf("restored from the backup: got %q, want %q", got, want)
	}
	for i, p := range points {
		target := fmt.Sprintf("pit%d", i)
		must("RestoreTableToPointInTime", fmt.Sprintf(`{"SourceTableName":"src","TargetTableName":"%s","RestoreDateTime":%.3f}`, target, p.at), nil)
		if got := render(target, ""); got != p.items {
			t.Errorf("restored to after write %d: got %q, want %q", i, got, p.items)
		}
		if got := render(target, "byV"); got != p.gsi {
			t.Errorf("restored to after write %d, its GSI: got %q, want %q", i, got, p.gsi)
		}
	}
}
