package emulator

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// keepHarness drives an emulator kept in dir, reopened on the same
// clock.
type keepHarness struct {
	t     *testing.T
	dir   string
	clock *testkit.Clock
	e     *Emulator
}

func (h *keepHarness) open() {
	h.t.Helper()
	// DurabilityNone: the harness restarts by Close, never by a crash, and
	// thousands of writes each waiting for an fsync took 93 s of the
	// package's timeout under -race on a busy machine.
	h.e = openPersisted(h.t, h.dir, Options{Clock: h.clock.Now, Persist: PersistOptions{Durability: DurabilityNone},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
}

func (h *keepHarness) restart() {
	h.t.Helper()
	if err := h.e.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.open()
}

func (h *keepHarness) ok(op, body string) string {
	h.t.Helper()
	res, out := do(h.t, h.e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
	if res.StatusCode != http.StatusOK {
		h.t.Fatalf("%s %s: %d %s", op, body, res.StatusCode, out)
	}
	return out
}

// items renders a table's items (or, with index, a Scan of that index)
// as sorted "pk=v" pairs.
func (h *keepHarness) items(table, index string) string {
	h.t.Helper()
	body := `{"TableName":"` + table + `"}`
	if index != "" {
		body = `{"TableName":"` + table + `","IndexName":"` + index + `"}`
	}
	var out struct {
		Items []map[string]map[string]string
	}
	testkit.MustUnmarshal(h.t, h.ok("Scan", body), &out)
	var got []string
	for _, it := range out.Items {
		got = append(got, it["pk"]["S"]+"="+it["v"]["S"])
	}
	slices.Sort(got)
	return strings.Join(got, ",")
}

const keepTableBody = `{"TableName":"%s","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"v","AttributeType":"S"}],` +
	`"GlobalSecondaryIndexes":[{"IndexName":"byV","KeySchema":[{"AttributeName":"v","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],` +
	`"BillingMode":"PAY_PER_REQUEST"}`

// TestKeepBackupsAndPITR is the backups' persistence test: backups (USER
// and SYSTEM) and a point-in-time history survive Close + New on the
// same directory: ListBackups and DescribeBackup answer the same,
// RestoreTableFromBackup restores the same items, and a restore to each
// second of the history before the restart (and after it) gives exactly
// that second's items, its GSI included.
func TestKeepBackupsAndPITR(t *testing.T) {
	h := &keepHarness{t: t, dir: t.TempDir(), clock: testkit.NewClock(time.Unix(1_800_000_000, 0))}
	h.open()
	h.ok("CreateTable", fmt.Sprintf(keepTableBody, "src"))
	h.ok("CreateTable", fmt.Sprintf(keepTableBody, "gone"))
	for _, tbl := range []string{"src", "gone"} {
		h.ok("UpdateContinuousBackups", `{"TableName":"`+tbl+`","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":3}}`)
	}
	h.ok("PutItem", `{"TableName":"gone","Item":{"pk":{"S":"g"},"v":{"S":"1"}}}`)

	// One change a second; want[i] is the table after change i.
	type point struct {
		at         time.Time
		items, gsi string
	}
	var points []point
	changes := []string{
		`PutItem {"TableName":"src","Item":{"pk":{"S":"a"},"v":{"S":"1"}}}`,
		`PutItem {"TableName":"src","Item":{"pk":{"S":"b"},"v":{"S":"2"}}}`,
		`UpdateItem {"TableName":"src","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"3"}}}`,
		`DeleteItem {"TableName":"src","Key":{"pk":{"S":"b"}}}`,
		`BatchWriteItem {"RequestItems":{"src":[{"PutRequest":{"Item":{"pk":{"S":"c"},"v":{"S":"4"}}}},{"PutRequest":{"Item":{"pk":{"S":"d"},"v":{"S":"4"}}}}]}}`,
	}
	run := func(ch string) {
		h.clock.Advance(time.Second)
		op, body, _ := strings.Cut(ch, " ")
		h.ok(op, body)
		points = append(points, point{h.clock.Now(), h.items("src", ""), h.items("src", "byV")})
	}
	for _, ch := range changes[:3] {
		run(ch)
	}
	h.clock.Advance(time.Second)
	var cb struct{ BackupDetails struct{ BackupArn string } }
	testkit.MustUnmarshal(t, h.ok("CreateBackup", `{"TableName":"src","BackupName":"bk1"}`), &cb)
	backupItems := h.items("src", "")
	for _, ch := range changes[3:] {
		run(ch)
	}
	h.ok("DeleteTable", `{"TableName":"gone"}`) // its SYSTEM backup

	listAll := `{"BackupType":"ALL"}`
	listBefore := h.ok("ListBackups", listAll)
	describeBefore := h.ok("DescribeBackup", `{"BackupArn":"`+cb.BackupDetails.BackupArn+`"}`)
	cbBefore := h.ok("DescribeContinuousBackups", `{"TableName":"src"}`)

	h.restart()
	if got := h.ok("ListBackups", listAll); !testkit.JSONEqual(got, listBefore) {
		t.Errorf("ListBackups after the restart:\ngot  %s\nwant %s", got, listBefore)
	}
	if got := h.ok("DescribeBackup", `{"BackupArn":"`+cb.BackupDetails.BackupArn+`"}`); !testkit.JSONEqual(got, describeBefore) {
		t.Errorf("DescribeBackup after the restart:\ngot  %s\nwant %s", got, describeBefore)
	}
	if got := h.ok("DescribeContinuousBackups", `{"TableName":"src"}`); !testkit.JSONEqual(got, cbBefore) {
		t.Errorf("DescribeContinuousBackups after the restart:\ngot  %s\nwant %s", got, cbBefore)
	}
	h.ok("RestoreTableFromBackup", `{"BackupArn":"`+cb.BackupDetails.BackupArn+`","TargetTableName":"fromBackup"}`)
	if got := h.items("fromBackup", ""); got != backupItems {
		t.Errorf("restored from the backup: got %q, want %q", got, backupItems)
	}
	var sys struct {
		BackupSummaries []struct{ BackupArn, BackupType string }
	}
	testkit.MustUnmarshal(t, h.ok("ListBackups", `{"BackupType":"SYSTEM"}`), &sys)
	if len(sys.BackupSummaries) != 1 {
		t.Fatalf("SYSTEM backups after the restart: got %d, want 1", len(sys.BackupSummaries))
	}
	h.ok("RestoreTableFromBackup", `{"BackupArn":"`+sys.BackupSummaries[0].BackupArn+`","TargetTableName":"fromSystem"}`)
	if got := h.items("fromSystem", ""); got != "g=1" {
		t.Errorf("restored from the SYSTEM backup: got %q, want g=1", got)
	}

	// Writes after the restart join the history.
	run(`PutItem {"TableName":"src","Item":{"pk":{"S":"e"},"v":{"S":"5"}}}`)
	h.clock.Advance(time.Second)
	checkPoints := func(when string) {
		for i, p := range points {
			target := fmt.Sprintf("pit%d%s", i, when)
			h.ok("RestoreTableToPointInTime", fmt.Sprintf(`{"SourceTableName":"src","TargetTableName":"%s","RestoreDateTime":%d}`, target, p.at.Unix()))
			if got := h.items(target, ""); got != p.items {
				t.Errorf("%s: restored to change %d: got %q, want %q", when, i, got, p.items)
			}
			if got := h.items(target, "byV"); got != p.gsi {
				t.Errorf("%s: restored to change %d, its GSI: got %q, want %q", when, i, got, p.gsi)
			}
			h.ok("DeleteTable", `{"TableName":"`+target+`"}`)
		}
	}
	checkPoints("a")
	h.restart()
	checkPoints("b")

	// DeleteBackup removes the file: gone after a restart too.
	h.ok("DeleteBackup", `{"BackupArn":"`+cb.BackupDetails.BackupArn+`"}`)
	h.restart()
	res, out := do(t, h.e, "DynamoDB_20120810.DescribeBackup", testkit.DefaultAuth, `{"BackupArn":"`+cb.BackupDetails.BackupArn+`"}`)
	if typ := testkit.ErrorType(out); res.StatusCode != http.StatusBadRequest || typ != "BackupNotFoundException" {
		t.Errorf("a deleted backup after a restart: got %d %s, want 400 BackupNotFoundException", res.StatusCode, out)
	}

	// Disabling recovery removes the history's files.
	h.ok("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":false}}`)
	if files := pitrFiles(t, h.dir); len(files) != 0 {
		t.Errorf("files of a disabled history: %v, want none", files)
	}
}

// pitrFiles lists the point-in-time history files of the default
// namespace in dir.
func pitrFiles(t *testing.T, dir string) []string {
	t.Helper()
	key, region := testkit.Credential(testkit.DefaultAuth)
	ents, err := os.ReadDir(filepath.Join(dir, persist.NamespaceName(key, region), "pitr"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestKeepPITRFolded writes enough to a table with a one-day window,
// two days apart, that writes leave the window and are folded into the
// history's base and its base file is written again (the log cut), then
// checks restores inside the window across a restart.
func TestKeepPITRFolded(t *testing.T) {
	h := &keepHarness{t: t, dir: t.TempDir(), clock: testkit.NewClock(time.Unix(1_800_000_000, 0))}
	h.open()
	h.ok("CreateTable", fmt.Sprintf(keepTableBody, "src"))
	h.ok("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":1}}`)
	put := func(i int, v string) {
		h.ok("PutItem", fmt.Sprintf(`{"TableName":"src","Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}`, i%10, v))
	}
	for i := range 2100 {
		put(i, fmt.Sprintf("old%d", i)) // each a change: an unchanged item is no write
	}
	h.clock.Advance(2 * 24 * time.Hour)
	for i := range 2100 {
		if i == 1000 {
			h.clock.Advance(time.Second)
		}
		put(i, fmt.Sprintf("new%d", i/1000))
	}
	mid := h.clock.Now().Add(-time.Second)
	h.restart()
	h.ok("RestoreTableToPointInTime", fmt.Sprintf(`{"SourceTableName":"src","TargetTableName":"mid","RestoreDateTime":%d}`, mid.Unix()))
	if got, want := h.items("mid", ""), "k0=new0,k1=new0,k2=new0,k3=new0,k4=new0,k5=new0,k6=new0,k7=new0,k8=new0,k9=new0"; got != want {
		t.Errorf("restored to the first second of new writes: got %q, want %q", got, want)
	}
	if got, want := h.items("mid", "byV"), "k0=new0,k1=new0,k2=new0,k3=new0,k4=new0,k5=new0,k6=new0,k7=new0,k8=new0,k9=new0"; got != want {
		t.Errorf("its GSI: got %q, want %q", got, want)
	}
	// The base file was written again: it holds the folded writes.
	if err := h.e.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := persist.Open(h.dir, persist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, region := testkit.Credential(testkit.DefaultAuth)
	sd, err := st.SideDir(persist.NamespaceName(key, region), "pitr")
	if err != nil {
		t.Fatal(err)
	}
	bases, err := sd.List(".pitr")
	if err != nil || len(bases) != 1 {
		t.Fatalf("base files: got %v (%v), want one", bases, err)
	}
	_, meta, err := sd.ReadTable(bases[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(meta["dynamoemu.pitr"]), `"through":2100`) {
		t.Errorf("base file record: got %s, want it to hold the 2100 folded writes", meta["dynamoemu.pitr"])
	}
	var segs int
	for _, f := range pitrFiles(t, h.dir) {
		if strings.HasSuffix(f, ".alog") {
			segs++
		}
	}
	if segs > 3 {
		t.Errorf("log segments after a fold: got %d, want at most 3: %v", segs, pitrFiles(t, h.dir))
	}
}
