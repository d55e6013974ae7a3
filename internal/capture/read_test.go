package capture

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const header = `{"capture":"dynamoemu","version":1,"upstream":"http://127.0.0.1:8000","recorded":"2026-11-28T07:00:00Z","tablePrefix":"rec1-"}`

const putLine = `{"seq":1,"target":"DynamoDB_20120810.PutItem","request":{"TableName":"${prefix}t","Item":{"pk":{"S":"a"}}},"status":200,"response":{}}`

func TestReadGood(t *testing.T) {
	in := header + "\n" + putLine + "\n" +
		`{"seq":2,"target":"DynamoDB_20120810.GetItem","request":{"TableName":"${prefix}t","Key":{"pk":{"S":"a"}}},"status":200,"response":{"Item":{"pk":{"S":"a"}}},"afterMs":5,"check":false,"ignore":["ConsumedCapacity"],"note":"n","source":"s","oracle":"agrees"}` + "\n"
	f, err := Read("c.jsonl", strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, "rec1-", f.Header.TablePrefix)
	require.Len(t, f.Exchanges, 2)
	require.Equal(t, "PutItem", f.Exchanges[0].Operation())
	require.True(t, f.Exchanges[0].Checked())
	require.False(t, f.Exchanges[1].Checked())
	require.Equal(t, int64(5), f.Exchanges[1].AfterMs)
	require.Equal(t, []string{"ConsumedCapacity"}, f.Exchanges[1].Ignore)
	require.Equal(t, 3, f.Exchanges[1].Line)
}

func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "c.jsonl:1: empty file"},
		{"header not JSON", "{capture\n", "c.jsonl:1: not a JSON object"},
		{"unknown version", `{"capture":"dynamoemu","version":2}` + "\n", "c.jsonl:1: capture version 2 is not known (this build reads 1)"},
		{"not ours", `{"capture":"other","version":1}` + "\n", `c.jsonl:1: header: capture is "other"`},
		{"version mistyped", `{"capture":"dynamoemu","version":"1"}` + "\n", `c.jsonl:1: header: member "version" is a string, not a number`},
		{"line not JSON", header + "\n" + putLine + "\n" + `{"seq":2,` + "\n", "c.jsonl:3: not a JSON object"},
		{"blank line", header + "\n\n" + putLine + "\n", "c.jsonl:2: blank line"},
		{"array line", header + "\n[1]\n", "c.jsonl:2: not a JSON object"},
		{"missing target", header + "\n" + `{"seq":1,"request":{},"status":200,"response":{}}` + "\n", `c.jsonl:2: member "target" is missing`},
		{"missing response", header + "\n" + `{"seq":1,"target":"DynamoDB_20120810.ListTables","request":{},"status":200}` + "\n", `c.jsonl:2: member "response" is missing`},
		{"status mistyped", header + "\n" + `{"seq":1,"target":"DynamoDB_20120810.ListTables","request":{},"status":"200","response":{}}` + "\n", `c.jsonl:2: member "status" is a string, not a number`},
		{"request mistyped", header + "\n" + `{"seq":1,"target":"DynamoDB_20120810.ListTables","request":"{}","status":200,"response":{}}` + "\n", `c.jsonl:2: member "request" is a string, not an object`},
		{"check mistyped", header + "\n" + `{"seq":1,"target":"DynamoDB_20120810.ListTables","request":{},"status":200,"response":{},"check":1}` + "\n", `c.jsonl:2: member "check" is a number, not a boolean`},
		{"ignore of numbers", header + "\n" + `{"seq":1,"target":"DynamoDB_20120810.ListTables","request":{},"status":200,"response":{},"ignore":[1]}` + "\n", `c.jsonl:2: member "ignore"`},
		{"seq out of order", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":3`, 1) + "\n", "c.jsonl:2: seq is 3, not 1"},
		{"unknown member", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"ingore":[]`, 1) + "\n", `c.jsonl:2: member "ingore" is not part of the format`},
		{"bad status", header + "\n" + strings.Replace(putLine, `"status":200`, `"status":42`, 1) + "\n", "c.jsonl:2: status 42 is not an HTTP status"},
		{"bad target", header + "\n" + strings.Replace(putLine, `DynamoDB_20120810.PutItem`, `PutItem`, 1) + "\n", `c.jsonl:2: target "PutItem"`},
		{"negative wait", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"afterMs":-1`, 1) + "\n", "c.jsonl:2: afterMs -1"},
		{"bad oracle", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"oracle":"maybe"`, 1) + "\n", `c.jsonl:2: oracle "maybe"`},
		{"two values", header + "\n" + putLine + " {}\n", "c.jsonl:2: more than one JSON value"},
		{"bad upstream", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"upstream":"flaky"`, 1) + "\n", `c.jsonl:2: upstream "flaky"`},
		{"bad retry", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"retries":[{"status":500}]`, 1) + "\n", "c.jsonl:2: retries[0] is not an answer"},
		{"bad overlap", header + "\n" + strings.Replace(putLine, `"seq":1`, `"seq":1,"overlap":-2`, 1) + "\n", "c.jsonl:2: overlap -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read("c.jsonl", strings.NewReader(tc.in))
			require.Error(t, err)
			require.Nil(t, f)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestWriteRoundTrip(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b, Header{Upstream: "http://u", TablePrefix: "p-"})
	require.NoError(t, err)
	no := false
	for i, target := range []string{"DynamoDB_20120810.CreateTable", "DynamoDB_20120810.PutItem"} {
		seq, err := w.Write(Exchange{Target: target, Request: []byte(`{"TableName": "${prefix}t"}`), Status: 200, Response: []byte(`{"a":"<&>"}`), Check: &no, AfterMs: 3})
		require.NoError(t, err)
		require.Equal(t, i+1, seq)
	}
	_, err = w.Write(Exchange{Target: "DynamoDB_20120810.PutItem", Request: []byte(`{`), Status: 200, Response: []byte(`{}`)})
	require.Error(t, err)
	require.Contains(t, b.String(), `"a":"<&>"`, "no HTML escapes")
	f, err := Read("w", &b)
	require.NoError(t, err)
	require.Equal(t, Version, f.Header.Version)
	require.Equal(t, "p-", f.Header.TablePrefix)
	require.Len(t, f.Exchanges, 2)
	require.Equal(t, 2, f.Exchanges[1].Seq)
	require.JSONEq(t, `{"TableName":"${prefix}t"}`, string(f.Exchanges[1].Request))
	require.False(t, f.Exchanges[1].Checked())
	require.Equal(t, int64(3), f.Exchanges[1].AfterMs)
}

// FuzzRead: any input is read or refused with its line, never a panic,
// and what is read writes back to a file that reads the same.
func FuzzRead(f *testing.F) {
	f.Add(header + "\n" + putLine + "\n")
	f.Add(header + "\n" + putLine)
	f.Add(`{"capture":"dynamoemu","version":2}`)
	f.Add(header + "\n" + `{"seq":1,"target":"x.y","request":{},"status":500,"response":{},"ignore":["a"],"check":true,"afterMs":1e3}` + "\n")
	f.Add("\n\n")
	f.Add(header + "\n" + `{"seq":1,"target":"x.y","request":{},"status":200,"response":{},"retries":[{"status":500,"response":{}}],"upstream":"failed: 500","client":"c1","overlap":2}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Read("f", strings.NewReader(in))
		if err != nil {
			require.Nil(t, got)
			require.True(t, strings.HasPrefix(err.Error(), "f:"), err.Error())
			return
		}
		var b bytes.Buffer
		w, err := NewWriter(&b, got.Header)
		require.NoError(t, err)
		for _, e := range got.Exchanges {
			_, err := w.Write(e)
			require.NoError(t, err)
		}
		again, err := Read("f", &b)
		require.NoError(t, err)
		require.Equal(t, len(got.Exchanges), len(again.Exchanges))
		for i := range got.Exchanges {
			require.Equal(t, got.Exchanges[i].Target, again.Exchanges[i].Target)
			require.Equal(t, got.Exchanges[i].Status, again.Exchanges[i].Status)
			require.Equal(t, got.Exchanges[i].Checked(), again.Exchanges[i].Checked())
		}
	})
}
