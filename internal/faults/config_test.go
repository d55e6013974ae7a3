package faults

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const sampleConfig = `{
  "seed": 42,
  "rules": [
    {"name": "hot-order", "table": "Orders", "index": "byCustomer",
     "operations": ["PutItem", "UpdateItem"],
     "partitionKey": "ORDER#1", "partitionKeyPrefix": "ORDER#",
     "sortKey": {"N": "1.50"}, "sortKeyPrefix": {"B": "AAE="},
     "probability": 0.5, "every": 3, "count": 10,
     "fault": "ProvisionedThroughputExceeded", "delay": "250ms",
     "message": "slow down"},
    {"fault": "TransactionConflict", "operations": ["TransactWriteItems"], "sortKey": {"S": "v1"}}
  ]
}`

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig([]byte(sampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Seed: 42, Rules: []Rule{
		{
			Name: "hot-order", Table: "Orders", Index: "byCustomer", Operations: []string{"PutItem", "UpdateItem"},
			PartitionKey: "ORDER#1", PartitionKeyPrefix: "ORDER#", SortKey: "1.5", SortKeyPrefix: "\x00\x01",
			Probability: 0.5, Every: 3, Count: 10, Fault: ProvisionedThroughputExceeded, Delay: 250 * time.Millisecond,
			Message: "slow down",
		},
		{Fault: TransactionConflict, Operations: []string{"TransactWriteItems"}, SortKey: "v1"},
	}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	// Written back and read again: the same rules.
	out, err := MarshalConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseConfig(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(again, c) {
		t.Errorf("round trip: got %+v\nwant %+v\n%s", again, c, out)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		doc, want string
	}{
		{``, "line 1, column 1"},
		{`{"rules": [}`, "line 1, column 12: invalid character '}'"},
		{"{\n  \"rulez\": []}", `json: unknown field "rulez"`},
		{`{"seed": -1}`, "member seed: number -1 is not a uint64"},
		{`{"rules": [{"fault": "Boom"}]}`, `rule 1: fault "Boom" is not one of TransactionConflict, `},
		{`{"rules": [{}]}`, `rule 1: fault "" is not one of`},
		{`{"rules": [{"fault": "Delay"}]}`, "rule 1: faults: invalid rule \"\": fault Delay needs a delay"},
		{`{"rules": [{"fault": "Delay", "delay": "soon"}]}`, `rule 1: delay "soon" is not a duration`},
		{`{"rules": [{"fault": "Throttling", "every": 1.5}]}`, "member rules.every: number 1.5 is not a int"},
		{`{"rules": [{"fault": "Throttling", "operations": ["Get"]}]}`, `unknown operation "Get"`},
		{`{"rules": [{"fault": "Throttling", "partitionKey": 1}]}`, "a key value is a string or"},
		{`{"rules": [{"fault": "Throttling", "partitionKey": {"S": "a", "N": "1"}}]}`, "exactly one of S, N, B"},
		{`{"rules": [{"fault": "Throttling", "partitionKey": {"BOOL": "1"}}]}`, `kind "BOOL"`},
		{`{"rules": [{"fault": "Throttling", "partitionKey": {"N": "one"}}]}`, `the N value "one"`},
		{`{"rules": [{"fault": "Throttling", "partitionKey": {"B": "!!"}}]}`, `the B value "!!" is not base64`},
		{`{"rules": []} {}`, "line 1, column 15: data after the document"},
	}
	for _, tc := range tests {
		_, err := ParseConfig([]byte(tc.doc))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%q) = %v, want ErrConfig containing %q", tc.doc, err, tc.want)
		}
	}
}

// FuzzParseConfig: any input either fails with ErrConfig or parses into
// valid rules that MarshalConfig writes back to the same config.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(sampleConfig))
	f.Add([]byte(`{"rules": [{"fault": "Delay", "delay": "1ms"}]}`))
	f.Add([]byte(`{"seed": 1, "rules": [{"fault": "Throttling", "partitionKey": {"B": "/w=="}}]}`))
	f.Add([]byte(`{"rules": [{"fault": "Throttling", "sortKeyPrefix": "\u00ff\ud800"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error without ErrConfig: %v", err)
			}
			return
		}
		for i := range c.Rules {
			if err := c.Rules[i].Validate(); err != nil {
				t.Fatalf("parsed an invalid rule: %v", err)
			}
		}
		out, err := MarshalConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseConfig(out)
		if err != nil {
			t.Fatalf("written config does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip: got %+v, want %+v", again, c)
		}
		if err := New(Options{}).SetRules(c.Seed, c.Rules); err != nil {
			t.Fatal(err)
		}
	})
}
