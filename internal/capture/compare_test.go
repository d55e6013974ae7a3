package capture

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalise(t *testing.T) {
	in := `{"TableDescription":{"TableName":"rec1-orders","TableArn":"arn:aws:dynamodb:eu-west-1:123456789012:table/rec1-orders",` +
		`"LatestStreamArn":"arn:aws:dynamodb:eu-west-1:123456789012:table/rec1-orders/stream/2026-11-28T07:42:29.123"},` +
		`"ShardIterator":"arn:aws:dynamodb:eu-west-1:123456789012:table/rec1-orders/stream/2026-11-28T07:42:29.123|1|AAAA/bb",` +
		`"Responses":{"rec1-orders":[]},"Statement":"SELECT * FROM \"rec1-orders\"","n":{"N":"1.50"}}`
	got, err := Normalise([]byte(in), "rec1-")
	require.NoError(t, err)
	require.JSONEq(t, `{"TableDescription":{"TableName":"${prefix}orders","TableArn":"arn:aws:dynamodb:${region}:${account}:table/${prefix}orders",`+
		`"LatestStreamArn":"arn:aws:dynamodb:${region}:${account}:table/${prefix}orders/stream/${label}"},`+
		`"ShardIterator":"arn:aws:dynamodb:${region}:${account}:table/${prefix}orders/stream/${label}|1|AAAA/bb",`+
		`"Responses":{"${prefix}orders":[]},"Statement":"SELECT * FROM \"${prefix}orders\"","n":{"N":"1.50"}}`, string(got))
	require.NotContains(t, string(got), "123456789012")
	again, err := Normalise(got, "rec1-")
	require.NoError(t, err)
	require.Equal(t, string(got), string(again), "normalising twice changes nothing")
	_, err = Normalise([]byte(`{`), "")
	require.Error(t, err)
}

// compare is a checked exchange's comparison with answer (status 200).
func compare(t *testing.T, recorded, answer string, ignore ...string) []Diff {
	t.Helper()
	s := NewSession("fresh-")
	diffs, err := s.Compare(Exchange{Seq: 1, Target: "DynamoDB_20120810.Query", Request: []byte(`{}`), Status: 200, Response: []byte(recorded)}, 200, []byte(answer), ignore...)
	require.NoError(t, err)
	return diffs
}

func paths(ds []Diff) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path)
	}
	return out
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name, recorded, answer string
		ignore                 []string
		want                   []string
	}{
		{"same", `{"Items":[{"a":{"S":"x"}}],"Count":1}`, `{"Count":1,"Items":[{"a":{"S":"x"}}]}`, nil, nil},
		{"items in order", `{"Items":[{"a":{"S":"x"}},{"a":{"S":"y"}}]}`, `{"Items":[{"a":{"S":"y"}},{"a":{"S":"x"}}]}`, nil, []string{"Items[0].a.S", "Items[1].a.S"}},
		{"an item more", `{"Items":[]}`, `{"Items":[{"a":{"S":"y"}}]}`, nil, []string{"Items[0]"}},
		{"sets as sets", `{"Item":{"s":{"SS":["a","b"]},"n":{"NS":["1","2"]}}}`, `{"Item":{"s":{"SS":["b","a"]},"n":{"NS":["2","1"]}}}`, nil, nil},
		{"set member differs", `{"Item":{"s":{"SS":["a","b"]}}}`, `{"Item":{"s":{"SS":["a","c"]}}}`, nil, []string{"Item.s.SS[1]"}},
		{"LastEvaluatedKey", `{"LastEvaluatedKey":{"pk":{"S":"a"}}}`, `{}`, nil, []string{"LastEvaluatedKey"}},
		{"ConsumedCapacity", `{"ConsumedCapacity":{"TableName":"${prefix}t","CapacityUnits":0.5}}`, `{"ConsumedCapacity":{"TableName":"fresh-t","CapacityUnits":1}}`, nil, []string{"ConsumedCapacity.CapacityUnits"}},
		{"ignore path", `{"ConsumedCapacity":{"CapacityUnits":0.5},"Count":1}`, `{"ConsumedCapacity":{"CapacityUnits":1},"Count":1}`, []string{"ConsumedCapacity"}, nil},
		{"ignore wildcard", `{"Items":[{"at":{"N":"1"}}]}`, `{"Items":[{"at":{"N":"2"}}]}`, []string{"Items.*.N"}, nil},
		{"ignore absent member", `{"Table":{"ItemCount":1}}`, `{"Table":{}}`, []string{"Table.ItemCount"}, nil},
		{"time by presence", `{"Table":{"CreationDateTime":1.7e9}}`, `{"Table":{"CreationDateTime":1800000000.123}}`, nil, nil},
		{"time of another type", `{"Table":{"CreationDateTime":1.7e9}}`, `{"Table":{"CreationDateTime":"now"}}`, nil, []string{"Table.CreationDateTime"}},
		{"time absent", `{"Table":{"CreationDateTime":1.7e9}}`, `{"Table":{}}`, nil, []string{"Table.CreationDateTime"}},
		{"error type after #", `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"m"}`, `{"__type":"com.amazon.coral.validate#ValidationException","message":"m"}`, nil, nil},
		{"error type differs", `{"__type":"a#ValidationException","message":"m"}`, `{"__type":"a#ResourceNotFoundException","message":"m"}`, nil, []string{"__type"}},
		{"error message differs", `{"__type":"a#ValidationException","message":"m"}`, `{"__type":"a#ValidationException","message":"n"}`, nil, []string{"message"}},
		{"batch answers in any order", `{"Responses":{"${prefix}t":[{"k":{"S":"1"}},{"k":{"S":"2"}}]}}`, `{"Responses":{"fresh-t":[{"k":{"S":"2"}},{"k":{"S":"1"}}]}}`, nil, nil},
		{"transaction answers in order", `{"Responses":[{"Item":{"k":{"S":"1"}}},{"Item":{"k":{"S":"2"}}}]}`, `{"Responses":[{"Item":{"k":{"S":"2"}}},{"Item":{"k":{"S":"1"}}}]}`, nil, []string{"Responses[0].Item.k.S", "Responses[1].Item.k.S"}},
		{"ARN by its normal form", `{"TableArn":"arn:aws:dynamodb:us-west-2:111122223333:table/${prefix}t"}`, `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fresh-t"}`, nil, nil},
		{"stream record", `{"Records":[{"eventID":"1","eventName":"INSERT","dynamodb":{"SequenceNumber":"100","Keys":{"k":{"S":"1"}},"ApproximateCreationDateTime":1}}]}`,
			`{"Records":[{"eventID":"x","eventName":"MODIFY","dynamodb":{"SequenceNumber":"9","Keys":{"k":{"S":"1"}},"ApproximateCreationDateTime":2}}]}`, nil, []string{"Records[0].eventName"}},
		{"numbers by value", `{"Count":1,"ConsumedCapacity":{"CapacityUnits":0.50}}`, `{"Count":1.0,"ConsumedCapacity":{"CapacityUnits":5e-1}}`, nil, nil},
		{"a number of another value", `{"Count":1}`, `{"Count":1.5}`, nil, []string{"Count"}},
		{"N as written", `{"Item":{"n":{"N":"1"}}}`, `{"Item":{"n":{"N":"1.0"}}}`, nil, []string{"Item.n.N"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, paths(compare(t, tc.recorded, tc.answer, tc.ignore...)))
		})
	}
}

func TestCompareStatusAndBody(t *testing.T) {
	s := NewSession("p-")
	e := Exchange{Seq: 1, Target: "DynamoDB_20120810.GetItem", Request: []byte(`{}`), Status: 400, Response: []byte(`{"__type":"x#ValidationException","message":"m"}`)}
	diffs, err := s.Compare(e, 200, []byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, []string{"status", "__type", "message"}, paths(diffs))
	require.Equal(t, Diff{Path: "status", Recorded: "400", Replayed: "200"}, diffs[0])
	require.Equal(t, `__type: recorded "x#ValidationException", replayed (absent)`, diffs[1].String())

	diffs, err = s.Compare(e, 400, []byte(`<html>`))
	require.NoError(t, err)
	require.Equal(t, []string{"(body)"}, paths(diffs))

	no := false
	e.Check = &no
	diffs, err = s.Compare(e, 200, []byte(`{}`))
	require.NoError(t, err)
	require.Empty(t, diffs, "an unchecked exchange is not compared")
}

func TestSessionBindsOpaqueValues(t *testing.T) {
	s := NewSession("fresh-")
	describe := Exchange{Seq: 1, Target: "DynamoDB_20120810.DescribeTable", Request: []byte(`{"TableName":"${prefix}t"}`), Status: 200,
		Response: []byte(`{"Table":{"TableName":"${prefix}t","LatestStreamArn":"arn:aws:dynamodb:${region}:${account}:table/${prefix}t/stream/${label}"}}`)}
	req, err := s.Request(describe)
	require.NoError(t, err)
	require.JSONEq(t, `{"TableName":"fresh-t"}`, string(req))
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/fresh-t/stream/2026-11-28T00:00:00.000"
	diffs, err := s.Compare(describe, 200, []byte(`{"Table":{"TableName":"fresh-t","LatestStreamArn":"`+arn+`"}}`))
	require.NoError(t, err)
	require.Empty(t, diffs)

	iter := Exchange{Seq: 2, Target: "DynamoDBStreams_20120810.GetShardIterator", Status: 200,
		Request:  []byte(`{"StreamArn":"arn:aws:dynamodb:${region}:${account}:table/${prefix}t/stream/${label}","ShardId":"shardId-rec","ShardIteratorType":"TRIM_HORIZON"}`),
		Response: []byte(`{"ShardIterator":"it-rec"}`)}
	req, err = s.Request(iter)
	require.NoError(t, err)
	require.Contains(t, string(req), arn, "the stream ARN this upstream answered")
	_, err = s.Compare(iter, 200, []byte(`{"ShardIterator":"it-new"}`))
	require.NoError(t, err)

	get := Exchange{Seq: 3, Target: "DynamoDBStreams_20120810.GetRecords", Status: 200, Request: []byte(`{"ShardIterator":"it-rec"}`), Response: []byte(`{}`)}
	req, err = s.Request(get)
	require.NoError(t, err)
	require.JSONEq(t, `{"ShardIterator":"it-new"}`, string(req))

	unbound := Exchange{Seq: 4, Target: "DynamoDB_20120810.TagResource", Status: 200, Request: []byte(`{"ResourceArn":"arn:aws:dynamodb:${region}:${account}:table/${prefix}u"}`), Response: []byte(`{}`)}
	req, err = s.Request(unbound)
	require.NoError(t, err)
	require.True(t, strings.Contains(string(req), "arn:aws:dynamodb:us-east-1:000000000000:table/fresh-u"), string(req))
}

func TestNormaliseNamesNotData(t *testing.T) {
	in := `{"TableName":"ord-t","Item":{"pk":{"S":"ord-1"},"arn":{"S":"arn:aws:dynamodb:eu-west-1:123456789012:table/ord-t"}},` +
		`"RequestItems":{"ord-t":[{"PutRequest":{"Item":{"pk":{"S":"ord-2"}}}}]},"Responses":{"ord-t":[{"pk":{"S":"ord-3"}}]},` +
		`"Statement":"UPDATE \"ord-t\" SET v = 'FROM ord-x' WHERE pk = 'ord-4'","ExpressionAttributeValues":{":v":{"S":"ord-5"}},` +
		`"IndexName":"ord-i","message":"Table ord-t not found","Other":"ord-6"}`
	got, err := Normalise([]byte(in), "ord-")
	require.NoError(t, err)
	require.JSONEq(t, `{"TableName":"${prefix}t","Item":{"pk":{"S":"ord-1"},"arn":{"S":"arn:aws:dynamodb:eu-west-1:123456789012:table/ord-t"}},`+
		`"RequestItems":{"${prefix}t":[{"PutRequest":{"Item":{"pk":{"S":"ord-2"}}}}]},"Responses":{"${prefix}t":[{"pk":{"S":"ord-3"}}]},`+
		`"Statement":"UPDATE \"${prefix}t\" SET v = 'FROM ord-x' WHERE pk = 'ord-4'","ExpressionAttributeValues":{":v":{"S":"ord-5"}},`+
		`"IndexName":"${prefix}i","message":"Table ${prefix}t not found","Other":"ord-6"}`, string(got))
	for st, want := range map[string]string{
		`SELECT * FROM ord-t`:                             `SELECT * FROM ${prefix}t`,
		`select * from "ord-t"."ord-i" where a='ord-t'`:   `select * from "${prefix}t"."ord-i" where a='ord-t'`,
		`INSERT INTO "ord-t" VALUE {'pk': 'it''s ord-t'}`: `INSERT INTO "${prefix}t" VALUE {'pk': 'it''s ord-t'}`,
		`DELETE FROM "ord-t" WHERE pk = 'from'`:           `DELETE FROM "${prefix}t" WHERE pk = 'from'`,
		`SELECT * FROM 'unterminated`:                     `SELECT * FROM 'unterminated`,
	} {
		require.Equal(t, want, statementTables(st, (&normaliser{prefix: "ord-"}).name), st)
	}
}

func TestVolatileStable(t *testing.T) {
	session := func() []string {
		vo := NewVolatile()
		var out []string
		for _, body := range []string{
			`{"Table":{"TableId":"` + randomToken(t) + `","CreationDateTime":1764400000.123,"LatestStreamLabel":"2026-11-29T12:00:00.000"}}`,
			`{"Items":[{"pk":{"S":"x"}}],"NextToken":"tok-A"}`,
			`{"NextToken":"tok-A","Limit":1}`,
			`{"Shards":[{"ShardId":"shard-1"}]}`,
			`{"ExclusiveStartShardId":"shard-1","ClientRequestToken":"` + randomToken(t) + `"}`,
		} {
			got, err := vo.Normalise([]byte(body), "p-")
			require.NoError(t, err)
			out = append(out, string(got))
		}
		return out
	}
	first, second := session(), session()
	require.Equal(t, first[1:], second[1:])
	require.Equal(t, `{"Table":{"CreationDateTime":0,"LatestStreamLabel":"${time}","TableId":"${id1}"}}`, first[0])
	require.Equal(t, `{"Limit":1,"NextToken":"${id2}"}`, first[2])
	require.Equal(t, `{"ClientRequestToken":"${id4}","ExclusiveStartShardId":"${id3}"}`, first[4])
}

// FuzzNormalise: any body is normalised or refused, never a panic; a
// normalised body normalises to itself, and its statements keep their
// string literals.
func FuzzNormalise(f *testing.F) {
	f.Add(`{"TableName":"ord-t","Statement":"SELECT * FROM \"ord-t\" WHERE a = 'ord-x'"}`, "ord-")
	f.Add(`{"Responses":{"ord-t":[{"a":{"S":"arn:aws:x:y:z:w"}}]},"TableArn":"arn:aws:dynamodb:r:1:table/ord-t/stream/x|1|y"}`, "ord-")
	f.Add(`{"Statement":"UPDATE \"a\"\"b"}`, "a")
	f.Add(`{"Statement":"'`, "")
	f.Fuzz(func(t *testing.T, body, prefix string) {
		got, err := Normalise([]byte(body), prefix)
		if err != nil {
			return
		}
		again, err := Normalise(got, prefix)
		require.NoError(t, err)
		require.Equal(t, string(got), string(again))
		_, err = NewVolatile().Normalise([]byte(body), prefix)
		require.NoError(t, err)
	})
}

func randomToken(t *testing.T) string {
	b := make([]byte, 8)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}
