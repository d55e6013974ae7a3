package emulator_test

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestLagListAdmin: GET /dynamoemu/lag lists the gates set,
// by namespace and table, with their modes and what each holds back;
// behind the admin guard as the other admin GETs (a page of a foreign
// origin is refused).
func TestLagListAdmin(t *testing.T) {
	url, e, db := emulatortest.NewServerWith(t, emulator.Options{Clock: stillClock})
	gsiTable(t, db, "tbl")
	do := func(method, body string, header ...string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, url+adminpath.Lag, strings.NewReader(body))
		if method != http.MethodGet {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	type view struct {
		Namespace, Table, Index, Delay string
		Reads, Stream, Hold            bool
		Pending                        int
	}
	list := func() []view {
		t.Helper()
		status, body := do("GET", "")
		var got struct{ Lags []view }
		if err := json.Unmarshal([]byte(body), &got); status != 200 || err != nil || got.Lags == nil {
			t.Fatalf("GET %s: got %d %s (%v), want 200 and a list", adminpath.Lag, status, body, err)
		}
		return got.Lags
	}
	if got := list(); len(got) != 0 {
		t.Errorf("before any lag: got %+v, want none", got)
	}
	for _, body := range []string{`{"table":"tbl","index":"byG","hold":true}`, `{"table":"tbl","reads":true,"delay":"250ms"}`} {
		if status, out := do("POST", body); status != 200 {
			t.Fatalf("POST %s: got %d %s", body, status, out)
		}
	}
	for _, pk := range []string{"a", "b"} {
		it := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "g": &types.AttributeValueMemberS{Value: "x"}}
		if _, err := db.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	ns := emulatortest.AccessKeyOf(t, db) + "/" + emulatortest.Region
	want := []view{
		{Namespace: ns, Table: "tbl", Reads: true, Delay: "250ms", Pending: 2},
		{Namespace: ns, Table: "tbl", Index: "byG", Delay: "0s", Hold: true, Pending: 2},
	}
	if got := list(); !reflect.DeepEqual(got, want) {
		t.Errorf("GET after two puts: got %+v, want %+v", got, want)
	}
	e.Clock().Advance(250 * 1e6) // the reads' delay: their writes are shown
	emulatortest.IndexLag(t, e, db, "tbl", "byG").Release()
	want[0].Pending, want[1].Pending = 0, 0
	if got := list(); !reflect.DeepEqual(got, want) {
		t.Errorf("GET after the delay and a Release: got %+v, want %+v", got, want)
	}
	if got := e.Lags().List(); len(got) != 2 || got[1].Index != "byG" || !got[1].Hold {
		t.Errorf("e.Lags(): got %+v, want tbl's reads and byG gates", got)
	}
	if status, body := do("GET", "", "Origin", "https://evil.example"); status != http.StatusForbidden {
		t.Errorf("GET from a foreign origin: got %d %s, want 403", status, body)
	}
}
