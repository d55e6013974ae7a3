package conformance

// AWS's answers where the emulator once answered otherwise (issue 11):
// numbers in strings, the Server header, constraint envelopes, fixed sentences.

import (
	"encoding/json"
	"testing"
)

// TestQuotedIntegers: a JSON string holding an integer is accepted where the
// API expects a number. DynamoDB Local (AWS's own local emulator) accepts
// them, and dynamodb-admin's create-table form sends throughput that way.
func TestQuotedIntegers(t *testing.T) {
	t.Parallel()
	name := uniqueName(t)
	r := rawCall(t, "CreateTable", `{"TableName":"`+name+`",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"ProvisionedThroughput":{"ReadCapacityUnits":"5","WriteCapacityUnits":"7"}}`)
	if r.Status != 200 {
		t.Fatalf("CreateTable: got %d %s: %s, want 200", r.Status, r.Type, r.Message)
	}
	c := newClient(t)
	t.Cleanup(func() { deleteTable(t, c, name) })
	d := mustDescribe(t, c, name)
	if got := *d.ProvisionedThroughput.WriteCapacityUnits; got != 7 {
		t.Errorf("WriteCapacityUnits: got %d, want 7", got)
	}
	for _, k := range []string{"a", "b", "c"} {
		mustPut(t, c, name, item{"pk": s(k)})
	}
	for _, body := range []string{
		`{"TableName":"` + name + `","Limit":"2"}`,
		`{"TableName":"` + name + `","Limit":"2","TotalSegments":"1","Segment":"0"}`,
	} {
		r := rawCall(t, "Scan", body)
		var out struct{ Count int }
		if r.Status != 200 || json.Unmarshal(r.Body, &out) != nil || out.Count != 2 {
			t.Errorf("Scan %s: got %d %s, want 200 with Count 2", body, r.Status, r.Body)
		}
	}
}

// TestServerHeader: AWS answers with "Server: Server".
func TestServerHeader(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers with its Jetty version in the Server header")
	r := rawSend(t, "ListTables", []byte(`{}`), nil)
	if got := r.Header.Get("Server"); r.Status != 200 || got != "Server" {
		t.Fatalf("got %d, Server %q, want 200 and Server %q", r.Status, got, "Server")
	}
}
