package emulator

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// mustDo sends op to e and returns the answer, failing unless its status is want.
func mustDo(t *testing.T, e *Emulator, want int, op, body string) string {
	t.Helper()
	res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: got %d %s, want %d", op, body, res.StatusCode, out, want)
	}
	return out
}

// TestPersistClockOffset: the clock's offset (Advance, SetNow, the admin
// clock) survives a restart: the restarted emulator's time is the base
// clock plus the last offset.
func TestPersistClockOffset(t *testing.T) {
	dir := t.TempDir()
	base := testkit.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	opts := Options{Clock: base.Now}
	e := openPersisted(t, dir, opts)
	if _, err := e.Clock().Advance(48 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Clock().Advance(-time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	base.Advance(10 * time.Minute) // the real time goes on while it is down
	e2 := openPersisted(t, dir, opts)
	if got, want := e2.Clock().Now(), base.Now().Add(47*time.Hour); !got.Equal(want) {
		t.Errorf("Now after a restart: got %v, want %v (the base clock plus the offset)", got, want)
	}
	set := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := e2.Clock().SetNow(set); err != nil {
		t.Fatal(err)
	}
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}
	e3 := openPersisted(t, dir, opts)
	if got := e3.Clock().Now(); !got.Equal(set) {
		t.Errorf("Now after SetNow and a restart: got %v, want %v", got, set)
	}
	// Without a data directory nothing is kept.
	if got := openPersisted(t, t.TempDir(), opts).Clock().Now(); !got.Equal(base.Now()) {
		t.Errorf("Now on a new directory: got %v, want the base clock %v", got, base.Now())
	}
}

// TestPersistClientRequestTokens: a TransactWriteItems token survives a
// restart within its ten-minute window (a retry answers success and
// writes nothing; another request under it is
// IdempotentParameterMismatchException), a token of a window that ended
// is forgotten (the retry runs again) and its saved copy deleted, with
// and without a snapshot in between.
func TestPersistClientRequestTokens(t *testing.T) {
	for _, compact := range []bool{false, true} {
		name := "log"
		if compact {
			name = "snapshot"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			clock := testkit.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
			opts := Options{Clock: clock.Now}
			e := openPersisted(t, dir, opts)
			mustDo(t, e, 200, "CreateTable", `{"TableName":"tok","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
			tx := `{"ClientRequestToken":"tok-1","ReturnConsumedCapacity":"TOTAL","TransactItems":[{"Put":{"TableName":"tok","Item":{"pk":{"S":"a"},"v":{"N":"1"}}}}]}`
			first := mustDo(t, e, 200, "TransactWriteItems", tx)
			mustDo(t, e, 200, "PutItem", `{"TableName":"tok","Item":{"pk":{"S":"a"},"v":{"N":"2"}}}`)
			restart := func() {
				t.Helper()
				if compact {
					names, _ := e.store.Namespaces()
					for _, n := range names {
						if err := e.store.Compact(n); err != nil {
							t.Fatal(err)
						}
					}
				}
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
				e = openPersisted(t, dir, opts)
			}
			restart()
			clock.Advance(5 * time.Minute)
			if got := mustDo(t, e, 200, "TransactWriteItems", tx); !strings.Contains(got, `"ConsumedCapacity"`) {
				t.Errorf("retry within the window after a restart: got %s, want its capacity like the first answer %s", got, first)
			}
			if got := mustDo(t, e, 200, "GetItem", `{"TableName":"tok","Key":{"pk":{"S":"a"}}}`); !strings.Contains(got, `"v":{"N":"2"}`) {
				t.Errorf("item after the retry within the window: got %s, want v 2 (the retry writes nothing)", got)
			}
			other := strings.Replace(tx, `"N":"1"`, `"N":"9"`, 1)
			if got := mustDo(t, e, 400, "TransactWriteItems", other); testkit.ErrorType(got) != "IdempotentParameterMismatchException" {
				t.Errorf("another request under the token after a restart: got %s, want IdempotentParameterMismatchException", got)
			}
			restart()
			clock.Advance(6 * time.Minute) // 11 minutes since the first use
			restart()
			metaKeys := e.svc.Namespace("AKID1/us-east-1").DB().MetaKeys()
			if slices.ContainsFunc(metaKeys, func(k string) bool { return strings.Contains(k, "tok-1") }) {
				t.Errorf("DB metadata after the window and a restart: got %v, want the token's key deleted", metaKeys)
			}
			mustDo(t, e, 200, "TransactWriteItems", tx)
			if got := mustDo(t, e, 200, "GetItem", `{"TableName":"tok","Key":{"pk":{"S":"a"}}}`); !strings.Contains(got, `"v":{"N":"1"}`) {
				t.Errorf("item after a retry past the window: got %s, want v 1 (the retry ran again)", got)
			}
		})
	}
}

// TestPersistConventionsAttachments: a table's conventions policy,
// attached by its tags at CreateTable or by TagResource and detached by
// UntagResource, is what it was after a restart (the tags are kept; the
// policy is resolved from them and the configuration at load).
func TestPersistConventionsAttachments(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Conventions: &conventions.Config{}}
	e := openPersisted(t, dir, opts)
	const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/"
	for _, name := range []string{"created", "tagged", "untagged"} {
		tags := ""
		if name != "tagged" {
			tags = `,"Tags":[{"Key":"` + conventions.TagRoles + `","Value":"command"}]`
		}
		mustDo(t, e, 200, "CreateTable", `{"TableName":"`+name+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"`+tags+`}`)
	}
	mustDo(t, e, 200, "TagResource", `{"ResourceArn":"`+arn+`tagged","Tags":[{"Key":"`+conventions.TagRoles+`","Value":"command"}]}`)
	mustDo(t, e, 200, "UntagResource", `{"ResourceArn":"`+arn+`untagged","TagKeys":["`+conventions.TagRoles+`"]}`)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := openPersisted(t, dir, opts)
	bad := `"Item":{"pk":{"S":"ORDER"},"sk":{"S":"x"}}` // a command key without a tenant (rule A2)
	for _, tc := range []struct {
		table string
		want  int
	}{{"created", 400}, {"tagged", 400}, {"untagged", 200}} {
		out := mustDo(t, e2, tc.want, "PutItem", `{"TableName":"`+tc.table+`",`+bad+`}`)
		if tc.want == 400 && !strings.Contains(out, "[conventions A2]") {
			t.Errorf("PutItem breaking rule A2 into %s after a restart: got %s, want the rule's ValidationException", tc.table, out)
		}
	}
}
