package service

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestUpdateItemWhileTogglingStream is issue 16's interleaving: eight
// writers doing UpdateItem ADD n :one while UpdateTable turns the table's
// stream on and off. UpdateItem checked index keys under the table's
// storage lock by taking the metadata lock, while UpdateTable held the
// metadata lock and took the storage lock to attach or detach the stream:
// the table hung within seconds. Every write must land.
func TestUpdateItemWhileTogglingStream(t *testing.T) {
	const (
		writers          = 8
		updatesPerWriter = 200
		toggles          = 100
	)
	e := newTestService(t, Config{})
	mustDo := func(op, body string) (int, string) {
		res, out := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		return res.StatusCode, out
	}
	if status, out := mustDo("CreateTable", `{"TableName":"counters","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); status != http.StatusOK {
		t.Fatalf("CreateTable: status %d, body %s", status, out)
	}

	var wg sync.WaitGroup
	errs := make(chan string, writers+1)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < updatesPerWriter; i++ {
				status, out := mustDo("UpdateItem", `{"TableName":"counters","Key":{"pk":{"S":"c"}},
					"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`)
				if status != http.StatusOK {
					errs <- fmt.Sprintf("UpdateItem: status %d, body %s", status, out)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < toggles; i++ {
			spec := `{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}`
			if i%2 == 1 {
				spec = `{"StreamEnabled":false}`
			}
			status, out := mustDo("UpdateTable", `{"TableName":"counters","StreamSpecification":`+spec+`}`)
			if status != http.StatusOK {
				errs <- fmt.Sprintf("UpdateTable: status %d, body %s", status, out)
				return
			}
		}
	}()
	testkit.WaitOrDump(t, &wg)
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	_, out := mustDo("GetItem", `{"TableName":"counters","Key":{"pk":{"S":"c"}},"ConsistentRead":true}`)
	if want := fmt.Sprintf(`{"Item":{"n":{"N":"%d"},"pk":{"S":"c"}}}`, writers*updatesPerWriter); out != want {
		t.Errorf("got %s, want %s", out, want)
	}
}
