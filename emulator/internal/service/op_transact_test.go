package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// newTxEnv returns an emulator with a controllable clock and two tables:
// txh (pk S) and txr (pk S, sk N).
func newTxEnv(t testing.TB) (*itemsEnv, *time.Time) {
	t.Helper()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Tests move the clock only between requests.
	e, err := New(testConfig(Config{Clock: func() time.Time { return now }}))
	if err != nil {
		t.Fatal(err)
	}
	env := &itemsEnv{t: t, h: serviceHandler(e), emu: e}
	env.mustOK("CreateTable", `{"TableName":"txh","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	env.mustOK("CreateTable", `{"TableName":"txr","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	return env, &now
}

func TestTransactWriteItems(t *testing.T) {
	env, _ := newTxEnv(t)
	env.mustOK("PutItem", `{"TableName":"txh","Item":{"pk":{"S":"x"},"v":{"N":"1"}}}`)
	const tce = "TransactionCanceledException"
	env.run(t, []itemCase{
		{name: "commit", op: "TransactWriteItems", body: `{"TransactItems":[
			{"Put":{"TableName":"txr","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}},
			{"Update":{"TableName":"txh","Key":{"pk":{"S":"x"}},"UpdateExpression":"SET v = v + :one","ConditionExpression":"v = :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}],
			"ReturnConsumedCapacity":"INDEXES"}`,
			want: `{"ConsumedCapacity":[{"TableName":"txr","CapacityUnits":2,"WriteCapacityUnits":2,"Table":{"CapacityUnits":2,"WriteCapacityUnits":2}},` +
				`{"TableName":"txh","CapacityUnits":2,"WriteCapacityUnits":2,"Table":{"CapacityUnits":2,"WriteCapacityUnits":2}}]}`},
		{name: "written", op: "GetItem", body: `{"TableName":"txh","Key":{"pk":{"S":"x"}}}`, want: `{"Item":{"pk":{"S":"x"},"v":{"N":"2"}}}`},
		{name: "cancelled", op: "TransactWriteItems", body: `{"TransactItems":[
			{"Delete":{"TableName":"txr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}},
			{"ConditionCheck":{"TableName":"txh","Key":{"pk":{"S":"x"}},"ConditionExpression":"v = :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}}]}`,
			errType: tce, errMsg: "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"},
		{name: "nothing deleted", op: "GetItem", body: `{"TableName":"txr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}`, want: `{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}`},
		{name: "bad enum", op: "TransactWriteItems", body: `{"ReturnItemCollectionMetrics":"ALL","TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"y"}},"ReturnValuesOnConditionCheckFailure":"ALL_NEW"}}]}`,
			errType: vErr, errMsg: "2 validation errors detected: Value 'ALL_NEW' at 'transactItems.1.member.put.returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]; " +
				"Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"},
		{name: "token too long", op: "TransactWriteItems", body: `{"ClientRequestToken":"` + strings.Repeat("t", 37) + `","TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"y"}}}}]}`,
			errType: vErr, errMsg: "1 validation error detected: Value '" + strings.Repeat("t", 37) + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36"},
		{name: "updated item too large", op: "TransactWriteItems", body: `{"TransactItems":[{"Update":{"TableName":"txh","Key":{"pk":{"S":"x"}},"UpdateExpression":"SET big = :b","ExpressionAttributeValues":{":b":{"S":"` + strings.Repeat("b", 400*1024) + `"}}}}]}`,
			errType: tce, errMsg: "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]"},
	})
	_, body := env.call("TransactWriteItems", `{"TransactItems":[
		{"Delete":{"TableName":"txr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}},
		{"ConditionCheck":{"TableName":"txh","Key":{"pk":{"S":"x"}},"ConditionExpression":"v = :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}}]}`)
	want := `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]",` +
		`"CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"The conditional request failed","Item":{"pk":{"S":"x"},"v":{"N":"2"}}}]}`
	if body != want {
		t.Errorf("cancellation body:\n got %s\nwant %s", body, want)
	}
}

// TestTransactCollectionLimit: a write that would grow an item collection
// past the limit cancels the transaction, undoing the writes before it.
func TestTransactCollectionLimit(t *testing.T) {
	env := newCollectionsEnv(t, 400)
	item := func(pk, sk string, n int) string {
		return fmt.Sprintf(`{"Put":{"TableName":"tls","Item":{"pk":{"S":%q},"sk":{"N":%q},"l":{"S":"x"},"v":{"S":%q}}}}`, pk, sk, strings.Repeat("v", n))
	}
	env.run(t, []itemCase{
		{name: "fills a", op: "TransactWriteItems", body: `{"TransactItems":[` + item("a", "1", 40) + `,` + item("a", "2", 40) + `],"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{"ItemCollectionMetrics":{"tls":[{"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0,1]}]}}`},
		{name: "over the limit", op: "TransactWriteItems", body: `{"TransactItems":[` + item("b", "1", 0) + `,` + item("a", "3", 0) + `]}`,
			errType: "TransactionCanceledException", errMsg: "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ItemCollectionSizeLimitExceeded]"},
		{name: "first write undone", op: "GetItem", body: `{"TableName":"tls","Key":{"pk":{"S":"b"},"sk":{"N":"1"}}}`, want: `{}`},
	})
	if got := env.collectionSize(t, "tls", "b"); got != 0 {
		t.Errorf("collection b after the undo: %d bytes, want 0", got)
	}
}

func TestTransactIdempotencyWindow(t *testing.T) {
	env, now := newTxEnv(t)
	add := func(token, by, capacity string) (int, string) {
		return env.call("TransactWriteItems", `{"ClientRequestToken":"`+token+`","TransactItems":[{"Update":{"TableName":"txh","Key":{"pk":{"S":"n"}},"UpdateExpression":"ADD c :d","ExpressionAttributeValues":{":d":{"N":"`+by+`"}}}}]`+capacity+`}`)
	}
	count := func() string {
		return env.mustOK("GetItem", `{"TableName":"txh","Key":{"pk":{"S":"n"}},"ProjectionExpression":"c"}`)
	}
	// The first use reports the write; a replay the read, in its own mode.
	steps := []struct {
		name    string
		advance time.Duration
		token   string
		by      string
		errType string
		count   string
		answer  string // "" for no check
	}{
		{"first use", 0, "tok", "1", "", "1", `{"ConsumedCapacity":[{"TableName":"txh","CapacityUnits":2,"WriteCapacityUnits":2}]}`},
		{"replay", time.Minute, "tok", "1", "", "1", `{"ConsumedCapacity":[{"TableName":"txh","CapacityUnits":2,"ReadCapacityUnits":2}]}`},
		{"replay, capacity not asked", 0, "tok", "1", "", "1", `{}`},
		{"other request, same token", time.Minute, "tok", "2", "IdempotentParameterMismatchException", "1", ""},
		{"replay near the end of the window", 8*time.Minute - time.Second, "tok", "1", "", "1", ""},
		{"after the window: a new request", time.Second, "tok", "1", "", "2", ""},
		{"other token", 0, "tok2", "1", "", "3", ""},
	}
	for _, s := range steps {
		*now = now.Add(s.advance)
		capacity := `,"ReturnConsumedCapacity":"TOTAL"`
		if s.answer == `{}` {
			capacity = ""
		}
		status, body := add(s.token, s.by, capacity)
		if s.answer != "" && body != s.answer {
			t.Errorf("%s: got %s, want %s", s.name, body, s.answer)
		}
		if s.errType == "" && status != http.StatusOK {
			t.Fatalf("%s: status %d %s", s.name, status, body)
		}
		if s.errType != "" {
			if typ, _ := testkit.ErrorOf(body); typ != s.errType {
				t.Fatalf("%s: got %s, want %s", s.name, body, s.errType)
			}
		}
		if got, want := count(), `{"Item":{"c":{"N":"`+s.count+`"}}}`; got != want {
			t.Fatalf("%s: count %s, want %s", s.name, got, want)
		}
	}
}

// TestTransactSameTokenConcurrently: concurrent requests with one token
// write once; each answers success.
func TestTransactSameTokenConcurrently(t *testing.T) {
	env, _ := newTxEnv(t)
	var wg sync.WaitGroup
	statuses := make([]int, 8)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = env.call("TransactWriteItems", `{"ClientRequestToken":"same","TransactItems":[{"Update":{"TableName":"txh","Key":{"pk":{"S":"n"}},"UpdateExpression":"ADD c :d","ExpressionAttributeValues":{":d":{"N":"1"}}}}]}`)
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("request %d: status %d", i, s)
		}
	}
	if got, want := env.mustOK("GetItem", `{"TableName":"txh","Key":{"pk":{"S":"n"}}}`), `{"Item":{"c":{"N":"1"},"pk":{"S":"n"}}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestTransactGetItems(t *testing.T) {
	env, _ := newTxEnv(t)
	env.mustOK("PutItem", `{"TableName":"txh","Item":{"pk":{"S":"x"},"v":{"N":"1"}}}`)
	env.run(t, []itemCase{
		{name: "gets", op: "TransactGetItems", body: `{"TransactItems":[{"Get":{"TableName":"txh","Key":{"pk":{"S":"x"}}}},{"Get":{"TableName":"txr","Key":{"pk":{"S":"x"},"sk":{"N":"1"}}}},{"Get":{"TableName":"txh","Key":{"pk":{"S":"y"}},"ProjectionExpression":"v"}}],"ReturnConsumedCapacity":"TOTAL"}`,
			want: `{"Responses":[{"Item":{"pk":{"S":"x"},"v":{"N":"1"}}},{},{}],"ConsumedCapacity":[{"TableName":"txh","CapacityUnits":4,"ReadCapacityUnits":4},{"TableName":"txr","CapacityUnits":2,"ReadCapacityUnits":2}]}`},
		{name: "projection with nothing in it", op: "TransactGetItems", body: `{"TransactItems":[{"Get":{"TableName":"txh","Key":{"pk":{"S":"x"}},"ProjectionExpression":"w"}}]}`,
			want: `{"Responses":[{"Item":{}}]}`},
		{name: "no get", op: "TransactGetItems", body: `{"TransactItems":[{}]}`,
			errType: vErr, errMsg: "1 validation error detected: Value null at 'transactItems.1.member.get' failed to satisfy constraint: Member must not be null"},
		{name: "too many", op: "TransactGetItems", body: `{"TransactItems":[` + strings.Repeat(`{"Get":{"TableName":"txh","Key":{"pk":{"S":"x"}}}},`, 100) + `{"Get":{"TableName":"txh","Key":{"pk":{"S":"x"}}}}]}`,
			errType: vErr, errMsg: "1 validation error detected: " + apierr.TransactItemsLimit(101, maxTransactItems, "TransactGetItem")},
		{name: "missing table", op: "TransactGetItems", body: `{"TransactItems":[{"Get":{"TableName":"nope","Key":{"pk":{"S":"x"}}}}]}`,
			errType: "ResourceNotFoundException", errMsg: "Requested resource not found"},
	})
}

// TestTransactRandomized moves amounts between accounts in two tables with
// conditional TransactWriteItems from several goroutines, mixed with
// single-item UpdateItems that add and take back, while other goroutines
// read every account with TransactGetItems. Every snapshot must show the
// same total (no half transaction is ever visible), and at the end every
// account must equal a reference model replaying the committed transfers.
func TestTransactRandomized(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	env, _ := newTxEnv(t)
	const accounts, initial, workers, rounds = 6, 50, 4, 60
	keyOf := func(i int) (table, key string) {
		if i%2 == 0 {
			return "txh", fmt.Sprintf(`{"pk":{"S":"acct%d"}}`, i)
		}
		return "txr", fmt.Sprintf(`{"pk":{"S":"acct%d"},"sk":{"N":"%d"}}`, i, i)
	}
	for i := range accounts {
		table, key := keyOf(i)
		env.mustOK("UpdateItem", fmt.Sprintf(`{"TableName":%q,"Key":%s,"UpdateExpression":"SET bal = :b","ExpressionAttributeValues":{":b":{"N":"%d"}}}`, table, key, initial))
	}
	var gets []string
	for i := range accounts {
		table, key := keyOf(i)
		gets = append(gets, fmt.Sprintf(`{"Get":{"TableName":%q,"Key":%s,"ProjectionExpression":"bal"}}`, table, key))
	}
	snapshot := `{"TransactItems":[` + strings.Join(gets, ",") + `]}`

	var (
		mu    sync.Mutex
		model = make([]int, accounts)
	)
	for i := range model {
		model[i] = initial
	}
	errs := make(chan error, 16)
	var writers sync.WaitGroup
	for w := range workers {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for range rounds {
				from, to := r.IntN(accounts), r.IntN(accounts)
				if from == to {
					continue
				}
				amount := r.IntN(40) + 1
				ft, fk := keyOf(from)
				tt, tk := keyOf(to)
				body := fmt.Sprintf(`{"TransactItems":[
					{"Update":{"TableName":%q,"Key":%s,"UpdateExpression":"SET bal = bal - :a","ConditionExpression":"bal >= :a","ExpressionAttributeValues":{":a":{"N":"%d"}}}},
					{"Update":{"TableName":%q,"Key":%s,"UpdateExpression":"SET bal = bal + :a","ExpressionAttributeValues":{":a":{"N":"%d"}}}}]}`,
					ft, fk, amount, tt, tk, amount)
				status, out := env.call("TransactWriteItems", body)
				switch typ, _ := testkit.ErrorOf(out); {
				case status == http.StatusOK:
					mu.Lock()
					model[from] -= amount
					model[to] += amount
					mu.Unlock()
				case typ != "TransactionCanceledException":
					errs <- fmt.Errorf("transfer: %d %s", status, out)
					return
				}
				// A single-item write in between, which keeps the balance.
				st, sk := keyOf(r.IntN(accounts))
				if status, out := env.call("UpdateItem", fmt.Sprintf(`{"TableName":%q,"Key":%s,"UpdateExpression":"SET bal = bal + :z, n = :z","ExpressionAttributeValues":{":z":{"N":"0"}}}`, st, sk)); status != http.StatusOK {
					errs <- fmt.Errorf("update: %d %s", status, out)
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				status, out := env.call("TransactGetItems", snapshot)
				if status != http.StatusOK {
					errs <- fmt.Errorf("snapshot: %d %s", status, out)
					return
				}
				if sum := balanceSum(t, out); sum != accounts*initial {
					errs <- fmt.Errorf("snapshot total %d, want %d: %s", sum, accounts*initial, out)
					return
				}
			}
		}()
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("seed %d: %v", seed, err)
	}
	_, out := env.call("TransactGetItems", snapshot)
	var got struct {
		Responses []struct{ Item map[string]map[string]string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for i, r := range got.Responses {
		if want := fmt.Sprint(model[i]); r.Item["bal"]["N"] != want {
			t.Errorf("seed %d: account %d = %s, want %s", seed, i, r.Item["bal"]["N"], want)
		}
	}
}

// balanceSum adds the bal attributes of a TransactGetItems response.
func balanceSum(t testing.TB, out string) int {
	var got struct {
		Responses []struct{ Item map[string]map[string]string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	sum := 0
	for _, r := range got.Responses {
		var v int
		fmt.Sscan(r.Item["bal"]["N"], &v)
		sum += v
	}
	return sum
}

// FuzzTransactWriteItems: any body gets an answer that is no internal error.
func FuzzTransactWriteItems(f *testing.F) {
	for _, seed := range []string{
		`{"TransactItems":[{"Put":{"TableName":"txh","Item":{"pk":{"S":"a"}}}}]}`,
		`{"TransactItems":[{"Update":{"TableName":"txh","Key":{"pk":{"S":"a"}},"UpdateExpression":"ADD c :d","ExpressionAttributeValues":{":d":{"N":"1"}}}}],"ClientRequestToken":"t"}`,
		`{"TransactItems":[{"ConditionCheck":{"TableName":"txr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},{"Delete":{"TableName":"txh","Key":{"pk":{"S":"a"}}}}]}`,
		`{"TransactItems":[{}]}`,
		`{"TransactItems":[]}`,
	} {
		f.Add("TransactWriteItems", seed)
	}
	f.Add("TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"txh","Key":{"pk":{"S":"a"}},"ProjectionExpression":"a.b[1]"}}]}`)
	env, _ := newTxEnv(f)
	f.Fuzz(func(t *testing.T, op, body string) {
		if op != "TransactWriteItems" && op != "TransactGetItems" {
			return
		}
		env := &itemsEnv{t: t, h: env.h} // Helper must be called on t inside the target
		if status, out := env.call(op, body); status >= 500 {
			t.Fatalf("%s %s: status %d %s", op, body, status, out)
		}
	})
}
