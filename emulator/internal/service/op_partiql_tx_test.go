package service

import (
	"encoding/json"
	"fmt"

	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// txStatements is an ExecuteTransaction body of statements without
// parameters, with extra members appended.
func txStatements(extra string, stmts ...string) string {
	parts := make([]string, len(stmts))
	for i, s := range stmts {
		b, _ := json.Marshal(s)
		parts[i] = `{"Statement":` + string(b) + `}`
	}
	return `{"TransactStatements":[` + strings.Join(parts, ",") + `]` + extra + `}`
}

func TestExecuteTransactionTokens(t *testing.T) {
	env, _ := newTxEnv(t)
	env.mustOK("PutItem", `{"TableName":"txh","Item":{"pk":{"S":"n"},"c":{"N":"0"}}}`)
	add := txStatements(`,"ClientRequestToken":"tok","ReturnConsumedCapacity":"TOTAL"`, "UPDATE txh SET c = c + 1 WHERE pk = 'n'")
	env.run(t, []itemCase{
		{name: "first", op: "ExecuteTransaction", body: add,
			want: `{"Responses":[],"ConsumedCapacity":[{"TableName":"txh","CapacityUnits":2,"WriteCapacityUnits":2}]}`},
		// A replay reports the read of the item written (as TransactWriteItems).
		{name: "replay", op: "ExecuteTransaction", body: add,
			want: `{"Responses":[],"ConsumedCapacity":[{"TableName":"txh","CapacityUnits":2,"ReadCapacityUnits":2}]}`},
		{name: "once", op: "GetItem", body: `{"TableName":"txh","Key":{"pk":{"S":"n"}}}`, want: `{"Item":{"c":{"N":"1"},"pk":{"S":"n"}}}`},
		{name: "same token, other operation", op: "TransactWriteItems",
			body:    `{"ClientRequestToken":"tok","TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"m"}}}}]}`,
			errType: "IdempotentParameterMismatchException", errMsg: apierr.MsgIdempotentMismatch},
		{name: "token too long", op: "ExecuteTransaction", body: txStatements(`,"ClientRequestToken":"`+strings.Repeat("t", 37)+`"`, "SELECT * FROM txh WHERE pk = 'n'"),
			errType: vErr, errMsg: "1 validation error detected: Value '" + strings.Repeat("t", 37) + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36"},
		{name: "bad capacity", op: "ExecuteTransaction", body: txStatements(`,"ReturnConsumedCapacity":"ALL"`, "SELECT * FROM txh WHERE pk = 'n'"),
			errType: vErr, errMsg: "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
	})
}

// TestExecuteTransactionAtomic moves units between two items with write
// transactions while read transactions check that the total never
// changes: no reader sees one write of a transaction without the other.
func TestExecuteTransactionAtomic(t *testing.T) {
	env, _ := newTxEnv(t)
	env.mustOK("PutItem", `{"TableName":"txh","Item":{"pk":{"S":"a"},"v":{"N":"100"}}}`)
	env.mustOK("PutItem", `{"TableName":"txr","Item":{"pk":{"S":"b"},"sk":{"N":"1"},"v":{"N":"100"}}}`)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				d := strconv.Itoa((w+i)%7 + 1)
				status, body := env.call("ExecuteTransaction", txStatements("",
					"UPDATE txh SET v = v - "+d+" WHERE pk = 'a'",
					"UPDATE txr SET v = v + "+d+" WHERE pk = 'b' AND sk = 1"))
				if status != http.StatusOK {
					t.Errorf("write: %d %s", status, body)
					return
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				status, body := env.call("ExecuteTransaction", txStatements("",
					"SELECT v FROM txh WHERE pk = 'a'", "SELECT v FROM txr WHERE pk = 'b' AND sk = 1"))
				if status != http.StatusOK {
					t.Errorf("read: %d %s", status, body)
					return
				}
				var out struct {
					Responses []struct {
						Item struct {
							V struct{ N string } `json:"v"`
						}
					}
				}
				if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Responses) != 2 {
					t.Errorf("read: %v %s", err, body)
					return
				}
				a, _ := strconv.Atoi(out.Responses[0].Item.V.N)
				b, _ := strconv.Atoi(out.Responses[1].Item.V.N)
				if a+b != 200 {
					t.Errorf("got %d + %d = %d, want 200", a, b, a+b)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzExecuteTransaction sends two arbitrary statements as a transaction
// to tables with items: every answer is a 200 or a 400, never a 500, and a
// cancelled or refused transaction changes nothing.
func FuzzExecuteTransaction(f *testing.F) {
	for _, p := range [][2]string{
		{"INSERT INTO txh VALUE {'pk': 'new'}", "UPDATE txr SET v = v + 1 WHERE pk = 'b' AND sk = 1"},
		{"EXISTS(SELECT * FROM txh WHERE pk = 'a' AND v = 1)", "DELETE FROM txr WHERE pk = 'b' AND sk = 1"},
		{"SELECT v FROM txh WHERE pk = 'a'", "SELECT * FROM txr WHERE pk = 'b' AND sk = 1"},
		{"INSERT INTO txh VALUE {'pk': 'a'}", "UPDATE txh SET pk = 'x' WHERE pk = 'a'"},
		{"UPDATE txr SET v = 1 WHERE v = 2", "SELECT * FROM \"txr\".\"nope\" WHERE pk = 'b'"},
	} {
		f.Add(p[0], p[1])
	}
	env, _ := newTxEnv(f)
	env.mustOK("PutItem", `{"TableName":"txh","Item":{"pk":{"S":"a"},"v":{"N":"1"}}}`)
	env.mustOK("PutItem", `{"TableName":"txr","Item":{"pk":{"S":"b"},"sk":{"N":"1"},"v":{"N":"2"}}}`)
	f.Fuzz(func(t *testing.T, s1, s2 string) {
		env := &itemsEnv{t: t, h: env.h}
		snapshot := func() string {
			_, h := env.call("Scan", `{"TableName":"txh"}`)
			_, r := env.call("Scan", `{"TableName":"txr"}`)
			return h + r
		}
		before := snapshot()
		status, body := env.call("ExecuteTransaction", txStatements("", s1, s2))
		switch status {
		case http.StatusOK:
		case http.StatusBadRequest:
			if after := snapshot(); after != before {
				t.Fatalf("%q %q: refused (%s) but changed the tables:\n%s\n%s", s1, s2, body, before, after)
			}
		default:
			t.Fatalf("%q %q: status %d: %s", s1, s2, status, body)
		}
	})
}

// BenchmarkExecuteTransaction runs write and read transactions of n
// statements through the HTTP handler, against TransactWriteItems and
// TransactGetItems of the same items.
func BenchmarkExecuteTransaction(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		env, _ := newTxEnv(b)
		writes := make([]string, n)
		reads := make([]string, n)
		var puts, gets []string
		for i := range n {
			writes[i] = fmt.Sprintf("UPDATE txr SET v = %d WHERE pk = 'b' AND sk = %d", i, i)
			reads[i] = fmt.Sprintf("SELECT * FROM txr WHERE pk = 'b' AND sk = %d", i)
			env.mustOK("PutItem", fmt.Sprintf(`{"TableName":"txr","Item":{"pk":{"S":"b"},"sk":{"N":"%d"}}}`, i))
			puts = append(puts, fmt.Sprintf(`{"Update":{"TableName":"txr","Key":{"pk":{"S":"b"},"sk":{"N":"%d"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"%d"}}}}`, i, i))
			gets = append(gets, fmt.Sprintf(`{"Get":{"TableName":"txr","Key":{"pk":{"S":"b"},"sk":{"N":"%d"}}}}`, i))
		}
		for _, c := range []struct{ name, op, body string }{
			{"ExecuteTransactionWrites", "ExecuteTransaction", txStatements("", writes...)},
			{"ExecuteTransactionReads", "ExecuteTransaction", txStatements("", reads...)},
			{"TransactWriteItems", "TransactWriteItems", `{"TransactItems":[` + strings.Join(puts, ",") + `]}`},
			{"TransactGetItems", "TransactGetItems", `{"TransactItems":[` + strings.Join(gets, ",") + `]}`},
		} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				env := &itemsEnv{t: b, h: env.h}
				for b.Loop() {
					if status, out := env.call(c.op, c.body); status != http.StatusOK {
						b.Fatal(out)
					}
				}
			})
		}
	}
}
