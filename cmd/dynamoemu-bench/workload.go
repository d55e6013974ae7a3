package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The workload: one table (pk S, sk N) of partitions x 10 items of 240
// bytes (DynamoDB's size; 10 attributes), the emulator benchmarks' item,
// and these operations, each request built as raw JSON and each answer
// checked:
//
//	put     PutItem of an existing key (an overwrite); answer {}
//	get     GetItem of a random key; the item, with its key
//	query   Query of one partition; its 10 items
//	update  UpdateItem SET #c = #c + :one IF attribute_exists(pk),
//	        UPDATED_NEW; the new count
//	scan    Scan Limit 100 from the start; 100 items
//	scanfilter
//	        Scan Limit 500 from the start, FilterExpression #c = :z
//	        (count 0, one item in ten as loaded): the emulator benchmarks'
//	        ScanFiltered; it reads 500 items (or the table's, if fewer)
//	        and returns those the filter keeps
//	batch   BatchWriteItem of 25 puts; no unprocessed items
//	mixed   get 50%, put 25%, query 15%, update 10%
//
// Strict checks compare the keys and counts of the answer with the
// request; the floor's canned answers (floor.go) only pass the checks of
// shape, so a floor is run with strict off.
const (
	itemsPerPartition = 10
	itemSize          = 240
	scanLimit         = 100
	scanFilterLimit   = 500
	batchSize         = 25
)

// opNames are the operations in the order the matrix prints them.
var opNames = []string{"put", "get", "query", "update", "scan", "scanfilter", "batch", "mixed"}

// workload is one table's data and request builders.
type workload struct {
	table      string
	partitions int
	gsi        bool // the table has the index byEmail (create)
}

func pkText(p int) string { return fmt.Sprintf("user#%07d", p) }

// appendItem appends the JSON of item (p, s): 10 attributes, itemSize
// bytes by DynamoDB's rules.
func appendItem(b []byte, p, s int) []byte {
	pk := pkText(p)
	sk := strconv.Itoa(s)
	email := "someone." + strconv.Itoa(p) + "@example.com"
	count := strconv.Itoa(s % 10)
	// Sizes: names + values; N by DynamoDB's digit-pair rule (numbers
	// of 1 or 2 digits take 2 bytes, 1234.5 takes 4).
	size := len("pk") + len(pk) + len("sk") + numberSize(sk) + len("status") + len("active") +
		len("count") + numberSize(count) + len("price") + 4 + len("flag") + 1 +
		len("tags") + len("red") + len("green") + len("email") + len(email) + len("f0") + len("f1")
	pad := strings.Repeat("x", max(itemSize-size, 0))
	b = append(b, `{"pk":{"S":"`...)
	b = append(b, pk...)
	b = append(b, `"},"sk":{"N":"`...)
	b = append(b, sk...)
	b = append(b, `"},"status":{"S":"active"},"count":{"N":"`...)
	b = append(b, count...)
	b = append(b, `"},"price":{"N":"1234.5"},"flag":{"BOOL":`...)
	b = strconv.AppendBool(b, s%2 == 0)
	b = append(b, `},"tags":{"SS":["red","green"]},"email":{"S":"`...)
	b = append(b, email...)
	b = append(b, `"},"f0":{"S":"`...)
	b = append(b, pad...)
	b = append(b, `"},"f1":{"S":""}}`...)
	return b
}

// numberSize is DynamoDB's size of a small non-negative integer's text:
// a byte, and one per pair of digits (zero is the byte alone).
func numberSize(n string) int {
	if n == "0" {
		return 1
	}
	return 1 + (len(n)+1)/2
}

func appendKey(b []byte, p, s int) []byte {
	b = append(b, `{"pk":{"S":"`...)
	b = append(b, pkText(p)...)
	b = append(b, `"},"sk":{"N":"`...)
	b = strconv.AppendInt(b, int64(s), 10)
	return append(b, `"}}`...)
}

func (w *workload) start(b []byte) []byte {
	b = append(b, `{"TableName":"`...)
	b = append(b, w.table...)
	return append(b, '"')
}

// request is one request and what its answer must show.
type request struct {
	op      string // the API operation
	body    []byte
	kind    string // the workload operation, for checking
	p, s    int    // the key asked for
	scanned int    // scanfilter: the items the Scan must read
}

// next builds the next request of workload operation op into buf.
func (w *workload) next(op string, r *rand.Rand, buf []byte) request {
	if op == "mixed" {
		switch x := r.IntN(100); {
		case x < 50:
			op = "get"
		case x < 75:
			op = "put"
		case x < 90:
			op = "query"
		default:
			op = "update"
		}
	}
	p, s := r.IntN(w.partitions), r.IntN(itemsPerPartition)
	b := w.start(buf[:0])
	switch op {
	case "put":
		b = appendItem(append(b, `,"Item":`...), p, s)
		return request{op: "PutItem", body: append(b, '}'), kind: op, p: p, s: s}
	case "get":
		b = appendKey(append(b, `,"Key":`...), p, s)
		return request{op: "GetItem", body: append(b, '}'), kind: op, p: p, s: s}
	case "query":
		b = append(b, `,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"`...)
		b = append(b, pkText(p)...)
		return request{op: "Query", body: append(b, `"}}}`...), kind: op, p: p}
	case "update":
		b = appendKey(append(b, `,"Key":`...), p, s)
		b = append(b, `,"UpdateExpression":"SET #c = #c + :one","ConditionExpression":"attribute_exists(pk)",`+
			`"ExpressionAttributeNames":{"#c":"count"},"ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW"}`...)
		return request{op: "UpdateItem", body: b, kind: op, p: p, s: s}
	case "scan":
		b = append(b, `,"Limit":`...)
		b = strconv.AppendInt(b, scanLimit, 10)
		return request{op: "Scan", body: append(b, '}'), kind: op}
	case "scanfilter":
		b = append(b, `,"FilterExpression":"#c = :z","ExpressionAttributeNames":{"#c":"count"},`+
			`"ExpressionAttributeValues":{":z":{"N":"0"}},"Limit":`...)
		b = strconv.AppendInt(b, scanFilterLimit, 10)
		scanned := min(scanFilterLimit, w.partitions*itemsPerPartition)
		return request{op: "Scan", body: append(b, '}'), kind: op, scanned: scanned}
	case "batch":
		// 25 distinct keys: consecutive items from a random one on.
		b = append(buf[:0], `{"RequestItems":{"`...)
		b = append(b, w.table...)
		b = append(b, `":[`...)
		n := w.partitions * itemsPerPartition
		first := r.IntN(n)
		for i := range batchSize {
			if i > 0 {
				b = append(b, ',')
			}
			j := (first + i) % n
			b = appendItem(append(b, `{"PutRequest":{"Item":`...), j/itemsPerPartition, j%itemsPerPartition)
			b = append(b, "}}"...)
		}
		return request{op: "BatchWriteItem", body: append(b, "]}}"...), kind: op}
	}
	panic("unknown operation " + op)
}

// attr is the part of an attribute value the checks read.
type attr struct {
	S *string `json:"S"`
	N *string `json:"N"`
}

// answer is the union of the answers' fields the checks read.
type answer struct {
	Item             map[string]attr            `json:"Item"`
	Attributes       map[string]attr            `json:"Attributes"`
	UnprocessedItems map[string]json.RawMessage `json:"UnprocessedItems"`
}

// check verifies the answer to req; strict compares keys and counts
// with the request. Query and Scan answers (10, 100, up to 500 items)
// are read with a byte scan rather than decoded, to keep the client's
// own cost small: items are counted by their partition key attributes.
func check(req request, body []byte, strict bool) error {
	if bytes.Contains(body, []byte(`"__type"`)) {
		return fmt.Errorf("%s: answered %s", req.op, body)
	}
	switch req.kind {
	case "query", "scan", "scanfilter":
		return checkItems(req, body, strict)
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		return fmt.Errorf("%s: answer is not JSON: %v", req.op, err)
	}
	switch req.kind {
	case "put":
		if len(body) < 2 || body[0] != '{' {
			return fmt.Errorf("PutItem: answer %q", body)
		}
	case "get":
		if len(a.Item) != 10 {
			return fmt.Errorf("GetItem: %d attributes, want 10", len(a.Item))
		}
		if strict && !isKey(a.Item, req.p, req.s) {
			return fmt.Errorf("GetItem %s/%d: another item", pkText(req.p), req.s)
		}
	case "update":
		if c := a.Attributes["count"]; c.N == nil {
			return fmt.Errorf("UpdateItem: no new count in %q", body)
		} else if _, err := strconv.ParseInt(*c.N, 10, 64); err != nil {
			return fmt.Errorf("UpdateItem: count %q", *c.N)
		}
	case "batch":
		if len(a.UnprocessedItems) != 0 {
			return fmt.Errorf("BatchWriteItem: %d tables with unprocessed items", len(a.UnprocessedItems))
		}
	}
	return nil
}

// checkItems checks a Query or Scan answer: its Count and the items it
// holds, counted by their partition key attributes.
func checkItems(req request, body []byte, strict bool) error {
	want := itemsPerPartition
	switch req.kind {
	case "scan":
		want = scanLimit
	case "scanfilter":
		var err error
		if want, err = checkScanned(req, body, strict); err != nil {
			return err
		}
	}
	if n, ok := jsonInt(body, `"Count":`); !ok || n != want {
		return fmt.Errorf("%s: Count %d, want %d", req.op, n, want)
	}
	n, other := 0, false
	rest := body
	for {
		i := bytes.Index(rest, []byte(pkAttr))
		if i < 0 {
			break
		}
		rest = rest[i+len(pkAttr):]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return fmt.Errorf("%s: answer cut short", req.op)
		}
		if string(rest[:end]) != pkText(req.p) {
			other = true
		}
		n++
	}
	if bytes.Contains(body, []byte(`"LastEvaluatedKey":{`)) {
		n-- // its key holds a pk too
	}
	if n != want {
		return fmt.Errorf("%s: %d items, want %d", req.op, n, want)
	}
	if strict && req.kind == "query" && other {
		return fmt.Errorf("%s %s: an item of another partition", req.op, pkText(req.p))
	}
	return nil
}

// checkScanned reads a filtered Scan's answer: its Count (the items it
// holds, which the caller counts), at most its ScannedCount, and strict,
// a ScannedCount of the req.scanned items it must read. Which items the
// filter keeps depends on the updates run before, so Count is not fixed.
func checkScanned(req request, body []byte, strict bool) (int, error) {
	count, ok := jsonInt(body, `"Count":`)
	scanned, ok2 := jsonInt(body, `"ScannedCount":`)
	if !ok || !ok2 || count > scanned || (strict && scanned != req.scanned) {
		return 0, fmt.Errorf("%s: Count %d of ScannedCount %d, want %d scanned", req.op, count, scanned, req.scanned)
	}
	return count, nil
}

// pkAttr starts a partition key attribute in an answer.
const pkAttr = `"pk":{"S":"`

// jsonInt reads the integer after key in body.
func jsonInt(body []byte, key string) (int, bool) {
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := body[i+len(key):]
	n, j := 0, 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		n = n*10 + int(rest[j]-'0')
		j++
	}
	return n, j > 0
}

func isKey(it map[string]attr, p, s int) bool {
	pk, sk := it["pk"], it["sk"]
	return pk.S != nil && *pk.S == pkText(p) && sk.N != nil && *sk.N == strconv.Itoa(s)
}

// setup creates the table (ACTIVE) and loads its items with BatchWriteItem.
func (w *workload) setup(c *client) error {
	if err := w.create(c); err != nil {
		return err
	}
	var b []byte
	n := w.partitions * itemsPerPartition
	for i := 0; i < n; i += batchSize {
		b = batchBody(b[:0], w.table, i, min(i+batchSize, n))
		body, err := c.call("BatchWriteItem", b, nil)
		if err != nil {
			return fmt.Errorf("loading items: %w", err)
		}
		if err := check(request{op: "BatchWriteItem", kind: "batch"}, body, true); err != nil {
			return fmt.Errorf("loading items: %w", err)
		}
	}
	return nil
}

// create creates the table and waits until it is ACTIVE.
func (w *workload) create(c *client) error {
	create := map[string]any{
		"TableName": w.table,
		"AttributeDefinitions": []map[string]string{
			{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
		},
		"KeySchema": []map[string]string{
			{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"},
		},
		"BillingMode": "PAY_PER_REQUEST",
	}
	if w.gsi { // by the email the items of a partition share
		create["AttributeDefinitions"] = append(create["AttributeDefinitions"].([]map[string]string),
			map[string]string{"AttributeName": "email", "AttributeType": "S"})
		create["GlobalSecondaryIndexes"] = []map[string]any{{
			"IndexName":  "byEmail",
			"KeySchema":  []map[string]string{{"AttributeName": "email", "KeyType": "HASH"}},
			"Projection": map[string]string{"ProjectionType": "KEYS_ONLY"},
		}}
	}
	if err := c.callJSON("CreateTable", create, nil); err != nil {
		return fmt.Errorf("CreateTable: %w", err)
	}
	for range 600 { // dynalite and DynamoDB Local may report CREATING first
		var d struct{ Table struct{ TableStatus string } }
		if err := c.callJSON("DescribeTable", map[string]string{"TableName": w.table}, &d); err != nil {
			return fmt.Errorf("DescribeTable: %w", err)
		}
		if d.Table.TableStatus == "ACTIVE" {
			break
		}
		sleepMillis(100)
	}
	return nil
}

// teardown deletes the table.
func (w *workload) teardown(c *client) error {
	return c.callJSON("DeleteTable", map[string]string{"TableName": w.table}, nil)
}
