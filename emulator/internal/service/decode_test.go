package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// inputTypes returns a new zero value of every operation's input type.
func inputTypes() []any {
	return []any{
		new(PutItemInput), new(GetItemInput), new(DeleteItemInput), new(UpdateItemInput),
		new(QueryInput), new(ScanInput), new(BatchGetItemInput), new(BatchWriteItemInput),
		new(CreateTableInput), new(DescribeTableInput), new(DeleteTableInput), new(ListTablesInput),
		new(UpdateTableInput), new(DescribeLimitsInput), new(DescribeEndpointsInput),
	}
}

// decodeCorpus are request bodies that exercise every decoder path; the
// fuzz targets start from them.
var decodeCorpus = []string{
	``, `{}`, ` { } `, `null`, `5`, `"x"`, `[]`, `true`, `{`, `{"TableName":"t"`, `{"TableName":"t"}x`,
	`{"TableName":"abc","Item":{"pk":{"S":"a"},"n":{"N":"1.50"},"l":{"L":[{"M":{"x":{"NULL":true}}}]}}}`,
	`{"TableName":5}`, `{"TableName":true}`, `{"TableName":false}`, `{"TableName":[1]}`, `{"TableName":{"a":1}}`,
	`{"TableName":null,"Item":null,"ConditionExpression":null}`,
	`{"Item":[]}`, `{"Item":5}`, `{"Item":{"a":null}}`, `{"Item":{"a":{"S":"x","N":"1"}}}`, `{"Item":{"a":{}}}`,
	`{"Item":{"a":{"NS":["1","x"]}}}`, `{"Item":{"a":{"B":"!!"}}}`, `{"Item":{"a":{"SS":[]}}},"TableName":5}`,
	`{"TableName":5,"Item":{"a":{"S":1}}}`, `{"Item":{"a":{"S":1}}, "TableName":5}`, `{"Item":{"a":{"S":1}}, "TableName":5`,
	`{"Limit":1e99}`, `{"Limit":1.5}`, `{"Limit":-3}`, `{"Limit":"3"}`, `{"Limit":9223372036854775808}`,
	`{"ConsistentRead":"yes"}`, `{"ConsistentRead":1}`, `{"ConsistentRead":true,"ConsistentRead":false}`,
	`{"tablename":"abc","TABLENAME":"abd","TableName":"abe"}`, `{"Table\u004eame":"esc","T\u00e1ble":"x"}`,
	`{"ExpressionAttributeNames":{"#a":"x"},"ExpressionAttributeNames":{"#b":"y"}}`,
	`{"ExpressionAttributeNames":{"#a":null,"#b":5}}`, `{"AttributesToGet":["a",null,"b"]}`, `{"AttributesToGet":"a"}`,
	`{"AttributesToGet":["a","b"],"AttributesToGet":["c"]}`, `{"AttributesToGet":[]}`,
	`{"Expected":{"a":{"Value":{"S":"x"},"Exists":true,"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"},null]}}}`,
	`{"Expected":{"a":{"Value":null}}}`, `{"Expected":{"a":null}}`, `{"Expected":[]}`,
	`{"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}}`,
	`{"AttributeUpdates":{"a":{"Action":"PUT","Value":{"S":"x"}}}}`,
	`{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}}],"ProjectionExpression":"a"},"u":null}}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"a":{"S":"b"}}}},{"DeleteRequest":{"Key":{"a":{"N":"1"}}}}]}}`,
	`{"TableName":"t","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"KeySchema":[{"KeyType":"RANGE"}]}`,
	`{"TableName":"t","AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":1e3}}`,
	`{"ReplicaUpdates":[{"Create":{"RegionName":"x","n":[1,2.5,-1e400,true,null,{"a":"b"}]}}]}`,
	`{"GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"i"}},{"Update":{"IndexName":"j","ProvisionedThroughput":{"ReadCapacityUnits":1}}}]}`,
	`{"Item":{"a":{"L":[[]]}}}`, `{"Item":{"a":{"M":[]}}}`, "{\"TableName\":\"a\xffb\"}", `{"TableName":"\ud800"}`,
	`{"Unknown":{"deep":[1,{"x":[true,false,null]}]},"TableName":"abc"}`, `{"TableName":"abc",}`, `{,}`,
	`{"ExclusiveStartKey":{"pk":{"S":"a"}},"Segment":1,"TotalSegments":2}`, `{"Select":"COUNT","ScanIndexForward":false}`,
	// Text that is not Unicode, anywhere in the body (wire_text.go).
	"{\"Item\":{\"k\xfe\":{\"S\":\"a\"}}}", "{\"Item\":{\"pk\":{\"S\":\"k\xff\"}}}", "{\"Unknown\":\"\xc3\"}",
	`{"TableName":"a\udc00"}`, `{"TableName":"\ud800\udc00"}`, `{"TableName":"\\ud800"}`, `{"Item":{"\ud83dx":{"S":"a"}}}`,
	`{"Item":{"pk":{"SS":["\ud800\u0041"]}}}`, `{"Unknown":["\udfff"],"TableName":5}`,
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ae, aok := apierr.Classify(a)
	be, bok := apierr.Classify(b)
	return aok == bok && ae.Class == be.Class && ae.Msg == be.Msg
}

// foldedNames are the member names of every input type, with the ones
// encoding/json would match case-insensitively.
func memberNames() map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				name := f.Name
				if tag, _, _ := wire.CutComma(f.Tag.Get("json")); tag != "" {
					name = tag
				}
				names[name] = true
				walk(f.Type)
			}
		}
	}
	for _, in := range inputTypes() {
		walk(reflect.TypeOf(in).Elem())
	}
	return names
}

// foldsToMember reports whether body (valid JSON) has a member name that
// differs from a known member name only in case: there encoding/json and
// AWS (and so DecodeRequest) disagree on purpose.
func foldsToMember(body []byte, names map[string]bool) bool {
	// UseNumber: a number no float64 holds (10e700) must not hide the
	// member names around it (the fuzzer found one).
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var x any
	if d.Decode(&x) != nil {
		return false
	}
	if _, err := d.Token(); err != io.EOF { // trailing data: json.Unmarshal's refusal
		return false
	}
	var walk func(x any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if !names[k] {
					for n := range names {
						if strings.EqualFold(k, n) {
							return true
						}
					}
				}
				if walk(v) {
					return true
				}
			}
		case []any:
			for _, v := range x {
				if walk(v) {
					return true
				}
			}
		}
		return false
	}
	return walk(x)
}

// checkAgainstStd decodes body into every input type with DecodeRequest
// and with the encoding/json reference and reports any difference.
func checkAgainstStd(t *testing.T, body []byte, names map[string]bool) {
	t.Helper()
	checkTypesAgainstStd(t, body, names, inputTypes())
}

// checkTypesAgainstStd is checkAgainstStd for the input types of types.
func checkTypesAgainstStd(t *testing.T, body []byte, names map[string]bool, types []any) {
	t.Helper()
	if foldsToMember(body, names) {
		return
	}
	for _, in := range types {
		typ := reflect.TypeOf(in).Elem()
		got := reflect.New(typ).Interface()
		want := reflect.New(typ).Interface()
		gotErr := wire.DecodeRequest(body, got)
		wantErr := decodeRequestStd(body, want)
		if wantErr == nil && string(bytes.Trim(body, " \t\r\n")) == "null" {
			// A null body is AWS's SerializationException; encoding/json
			// reads it as nothing given (wire's isJSONNull).
			if !errors.Is(gotErr, apierr.ErrSerialization) {
				t.Errorf("%s %q: error %v, want SerializationException", typ.Name(), body, gotErr)
			}
			continue
		}
		if quotedNumber(wantErr) {
			// The emulator accepts integers in strings, as DynamoDB Local
			// does; encoding/json refuses them (TestDecodeQuotedIntegers).
			continue
		}
		if !sameError(gotErr, wantErr) {
			t.Errorf("%s %q: error %v, encoding/json %v", typ.Name(), body, gotErr, wantErr)
			continue
		}
		if gotErr == nil && !sameExpected(got, want) {
			t.Errorf("%s %q: Expected differs from encoding/json's", typ.Name(), body)
			continue
		}
		sameNameLists(got)
		sameNameLists(want)
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", typ.Name(), body, got, want)
		}
	}
}

// quotedNumber reports whether err is encoding/json's refusal of a string
// for a numeric member.
func quotedNumber(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "STRING_VALUE cannot be converted to ") &&
		!strings.HasSuffix(err.Error(), "String") && !strings.HasSuffix(err.Error(), "Boolean")
}

// TestDecodeQuotedIntegers: a string holding an integer is accepted where a
// number is expected (DynamoDB Local does; dynamodb-admin sends them); any
// other string is a SerializationException.
func TestDecodeQuotedIntegers(t *testing.T) {
	tests := []struct {
		body    string
		want    *int64
		wantErr string
	}{
		{`{"Limit":"10"}`, ptr[int64](10), ""},
		{`{"Limit":" 7 "}`, ptr[int64](7), ""},
		{`{"Limit":"+7"}`, ptr[int64](7), ""},
		{`{"Limit":"007"}`, ptr[int64](7), ""},
		{`{"Limit":"-1"}`, ptr[int64](-1), ""},
		{`{"Limit":"x"}`, nil, "STRING_VALUE cannot be converted to Long"},
		{`{"Limit":"2.5"}`, nil, "STRING_VALUE cannot be converted to Long"},
		{`{"Limit":"1e1"}`, nil, "STRING_VALUE cannot be converted to Long"},
		{`{"Limit":""}`, nil, "STRING_VALUE cannot be converted to Long"},
		{`{"Limit":"+-1"}`, nil, "STRING_VALUE cannot be converted to Long"},
		{`{"Limit":"99999999999999999999"}`, nil, "NUMBER_VALUE cannot be converted to Long"},
		{`{"Limit":"\u0031"}`, ptr[int64](1), ""},
	}
	for _, tt := range tests {
		var in ScanInput
		err := wire.DecodeRequest([]byte(tt.body), &in)
		if tt.wantErr != "" {
			if !errors.Is(err, apierr.ErrSerialization) || err.Error() != tt.wantErr {
				t.Errorf("%s: got %v, want SerializationException %q", tt.body, err, tt.wantErr)
			}
			continue
		}
		if err != nil || in.Limit == nil || *in.Limit != *tt.want {
			t.Errorf("%s: got %v, %v, want Limit %d", tt.body, err, in.Limit, *tt.want)
		}
	}
	var ct CreateTableInput
	err := wire.DecodeRequest([]byte(`{"ProvisionedThroughput":{"ReadCapacityUnits":"5","WriteCapacityUnits":"6"}}`), &ct)
	if err != nil || *ct.ProvisionedThroughput.ReadCapacityUnits != 5 || *ct.ProvisionedThroughput.WriteCapacityUnits != 6 {
		t.Errorf("quoted throughput: got %v, %+v", err, ct.ProvisionedThroughput)
	}
}

func TestDecodeRequestMatchesEncodingJSON(t *testing.T) {
	names := memberNames()
	for _, body := range decodeCorpus {
		checkAgainstStd(t, []byte(body), names)
	}
}

// TestDecodeRequestCaseSensitive: AWS matches member names exactly, so a
// member whose name differs in case is unknown and ignored.
func TestDecodeRequestCaseSensitive(t *testing.T) {
	tests := []struct {
		name string
		body string
		in   any
		want any
	}{
		{"lower case", `{"tablename":"abc","item":{"a":{"S":"x"}}}`, new(PutItemInput), &PutItemInput{}},
		{"exact wins", `{"TABLENAME":"abc","TableName":"def"}`, new(GetItemInput), &GetItemInput{TableName: ptr("def")}},
		{"nested", `{"KeySchema":[{"attributeName":"pk","KeyType":"HASH"}]}`, new(CreateTableInput),
			&CreateTableInput{KeySchema: []KeySchemaElement{{KeyType: ptr("HASH")}}}},
		{"map values keep their keys", `{"ExpressionAttributeNames":{"#A":"a","#a":"b"}}`, new(QueryInput),
			&QueryInput{ExpressionAttributeNames: map[string]string{"#A": "a", "#a": "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := wire.DecodeRequest([]byte(tt.body), tt.in); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tt.in, tt.want) {
				t.Errorf("got %+v, want %+v", tt.in, tt.want)
			}
		})
	}

	// Through the handler: a lower-case TableName is no TableName at all.
	env := newItemsEnv(t)
	status, body := env.call("PutItem", `{"tablename":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}`)
	if status != http.StatusBadRequest || !strings.Contains(body, "ValidationException") {
		t.Errorf("PutItem with tablename: status %d, body %s; want a ValidationException", status, body)
	}
}

func ptr[T any](v T) *T { return &v }

// TestDecodeRequestErrors pins the wording of the errors DecodeRequest makes itself.
func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct {
		body string
		msg  string
	}{
		{`{"TableName":5}`, "NUMBER_VALUE cannot be converted to String"},
		{`{"TableName":true}`, "TRUE_VALUE cannot be converted to String"},
		{`{"ConsistentRead":"x"}`, "STRING_VALUE cannot be converted to Boolean"},
		{`{"Limit":1.5}`, "NUMBER_VALUE cannot be converted to Long"},
		{`{"AttributesToGet":{}}`, apierr.MsgSerMapStart},
		{`{"TableName":[]}`, apierr.MsgSerListStart},
		{`{"AttributesToGet":"a"}`, apierr.MsgSerExpectedList},
		{`{"ExpressionAttributeNames":"a"}`, apierr.MsgSerExpectedMap},
		{`{"TableName":5,"Limit":"x"}`, "NUMBER_VALUE cannot be converted to String"},
		{`{"Limit":"x","TableName":5}`, "STRING_VALUE cannot be converted to Long"},
		{`{"TableName":5,"ExclusiveStartKey":[]}`, apierr.MsgSerListStart},
		{`{"TableName":5,"ExclusiveStartKey":[]`, ""},
		{`{"TableName":"abc"}}`, ""},
	}
	for _, tt := range tests {
		var in ScanInput
		err := wire.DecodeRequest([]byte(tt.body), &in)
		if !errors.Is(err, apierr.ErrSerialization) || err.Error() != tt.msg {
			t.Errorf("%s: got %v, want SerializationException %q", tt.body, err, tt.msg)
		}
	}
}

// FuzzDecodeRequest: DecodeRequest never panics and agrees with
// encoding/json (apart from member names that differ only in case).
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range decodeCorpus {
		f.Add([]byte(s))
	}
	names := memberNames()
	f.Fuzz(func(t *testing.T, body []byte) {
		checkAgainstStd(t, body, names)
	})
}

func BenchmarkDecodeRequest(b *testing.B) {
	bodies := map[string]struct {
		body string
		in   func() any
	}{
		"GetItem": {`{"TableName":"bench","Key":{"pk":{"S":"user#0000001"},"sk":{"N":"1"}}}`, func() any { return new(GetItemInput) }},
		"UpdateItem": {`{"TableName":"bench","Key":{"pk":{"S":"user#0000001"},"sk":{"N":"1"}},"UpdateExpression":"SET #c = #c + :one","ConditionExpression":"attribute_exists(pk) AND #c >= :zero","ExpressionAttributeNames":{"#c":"count"},"ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`,
			func() any { return new(UpdateItemInput) }},
	}
	for name, bc := range bodies {
		body := []byte(bc.body)
		b.Run(name+"/decodeRequest", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := wire.DecodeRequest(body, bc.in()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := decodeRequestStd(body, bc.in()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecodeRequestPrecedence pins the order of errors doc.go describes: a
// syntax error anywhere first, then an attribute value's error wherever it
// is, then the first member of the wrong JSON type.
func TestDecodeRequestPrecedence(t *testing.T) {
	tests := []struct {
		body  string
		class *apierr.Class
		msg   string
	}{
		{`{"TableName":5,"Item":{"a":{"N":"x"}}}`, apierr.ErrValidation, ""},
		{`{"Item":{"a":{"N":"x"}},"TableName":5}`, apierr.ErrValidation, ""},
		{`{"Item":{"a":{"N":"x"}},"TableName":5,}`, apierr.ErrSerialization, ""},
		{`{"TableName":5,"ReturnValues":true}`, apierr.ErrSerialization, "NUMBER_VALUE cannot be converted to String"},
	}
	for _, tt := range tests {
		var in PutItemInput
		err := wire.DecodeRequest([]byte(tt.body), &in)
		if !errors.Is(err, tt.class) || (tt.msg != "" && err.Error() != tt.msg) {
			t.Errorf("%s: got %v, want %s %q", tt.body, err, tt.class.Name, tt.msg)
		}
	}
}

// TestCodecOfConcurrent decodes into types never seen before from many
// goroutines at once: none may run a codec still under construction (run
// it with -race).
func TestCodecOfConcurrent(t *testing.T) {
	for i := 0; i < 50; i++ {
		typ := reflect.StructOf([]reflect.StructField{
			{Name: "Name", Type: reflect.TypeFor[string]()},
			{Name: "Tags" + strconv.Itoa(i), Type: reflect.TypeFor[[]map[string]string]()},
		})
		body := []byte(`{"Name":"a","Tags` + strconv.Itoa(i) + `":[{"k":"v"}]}`)
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := reflect.New(typ)
				if err := wire.DecodeRequest(body, v.Interface()); err != nil {
					t.Errorf("decode: %v", err)
					return
				}
				if got := v.Elem().Field(0).String(); got != "a" {
					t.Errorf("Name = %q", got)
				}
			}()
		}
		wg.Wait()
	}
}

// raceNode is a recursive input type no other test decodes, so
// TestCodecConcurrentFirstUse builds its codec for the first time.
type raceNode struct {
	Name     string
	Children []raceNode
	Next     *raceNode
	Attrs    map[string]raceNode
}

// TestCodecConcurrentFirstUse: requests that need a codec another request
// is still building wait for it instead of running a half-built one (which
// answered 500 now and then to the first CreateTable requests).
func TestCodecConcurrentFirstUse(t *testing.T) {
	body := []byte(`{"Name":"a","Children":[{"Name":"b","Next":{"Name":"c"}}],"Attrs":{"x":{"Name":"d"}}}`)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var in raceNode
			if err := wire.DecodeRequest(body, &in); err != nil {
				errs <- err
				return
			}
			if in.Children[0].Next.Name != "c" || in.Attrs["x"].Name != "d" {
				errs <- fmt.Errorf("decoded %+v", in)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
