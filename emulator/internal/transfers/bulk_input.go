package transfers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/dynamoemu/dynamoemu/emulator/internal/ion"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// bulkRun is one bulk operation's reading and writing (bulk_ops.go has
// the format and the counts).
type bulkRun struct {
	c        service.Call
	table    string
	d        *BulkOperationDescription
	putBytes int64             // the bytes of the lines written
	failed   []json.RawMessage // report lines of parsing and validation errors
	unmet    []json.RawMessage // report lines of false conditions
}

// bulkLine is one DynamoDB JSON input line: a transaction's Put, its
// item and values kept raw (TableName and ReturnValuesOnConditionCheckFailure
// are read and not used: the operation names the table).
type bulkLine = shapes.Put[json.RawMessage, map[string]string, json.RawMessage]

// run writes every object under prefix in the bucket's directory.
func (r *bulkRun) run(bucketDir, prefix string) error {
	keys, err := listObjects(bucketDir, prefix)
	if err != nil {
		return err
	}
	var total int64
	for _, key := range keys {
		if fi, err := os.Stat(filepath.Join(bucketDir, filepath.FromSlash(key))); err == nil {
			total += fi.Size()
		}
	}
	r.d.TotalInputBytes = &total
	var processed int64
	r.d.ProcessedInputBytes = &processed
	for _, key := range keys {
		path := filepath.Join(bucketDir, filepath.FromSlash(key))
		if err := r.object(path); err != nil {
			return err
		}
		if fi, err := os.Stat(path); err == nil {
			processed += fi.Size()
		}
	}
	return nil
}

// object writes one object's items.
func (r *bulkRun) object(path string) error {
	src := r.d.InputS3Configuration
	in, err := openInput(path, str(src.InputCompressionType))
	if err != nil {
		return err // not compressed as said: the operation fails, naming the object
	}
	defer in.Close()
	if str(src.InputFormat) == "ION" {
		readIonObject(in, func(rec ion.Record) {
			r.d.ProcessedItemCount++
			if rec.Err != nil {
				r.fail(rec.Raw, rec.Err.Error())
				return
			}
			r.put(bulkLine{Item: rec.Item})
		})
		return nil
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 8<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			r.line(line)
		}
	}
	if err := sc.Err(); err != nil {
		r.d.ProcessedItemCount++
		r.d.FailedItemCount++
		r.failed = append(r.failed, reportLine(nil, "input object "+filepath.Base(path)+": "+err.Error()))
	}
	return nil
}

// line writes one input line through PutItem.
func (r *bulkRun) line(line []byte) {
	r.d.ProcessedItemCount++
	var rec bulkLine
	if err := json.Unmarshal(line, &rec); err != nil || len(rec.Item) == 0 {
		r.fail(line, "the line is not a JSON object with an Item")
		return
	}
	r.put(rec)
}

// put writes one input record through PutItem.
func (r *bulkRun) put(rec bulkLine) {
	it, err := wire.DecodeItem(rec.Item)
	if err != nil {
		r.fail(rec.Item, err.Error())
		return
	}
	put := &service.PutItemInput{TableName: &r.table, Item: wire.ItemToWire(it), ConditionExpression: rec.ConditionExpression,
		ExpressionAttributeNames: rec.ExpressionAttributeNames}
	if len(rec.ExpressionAttributeValues) > 0 {
		vals, err := wire.DecodeItem(rec.ExpressionAttributeValues)
		if err != nil {
			r.fail(rec.Item, err.Error())
			return
		}
		put.ExpressionAttributeValues = wire.ExpressionValues(vals)
	}
	if err := r.c.PutItem(put); err != nil {
		if errors.Is(err, apierr.ErrConditionalCheckFailed) {
			r.unmet = append(r.unmet, reportLine(rec.Item, err.Error()))
			return
		}
		r.fail(rec.Item, err.Error())
		return
	}
	r.putBytes += int64(len(rec.Item))
}

// fail counts a line that is not an item or that PutItem refused.
func (r *bulkRun) fail(item []byte, why string) {
	r.d.FailedItemCount++
	r.failed = append(r.failed, reportLine(item, why))
}

// reportLine is one line of an output report: the item as read (a
// string when it is not JSON) and why it was not written.
func reportLine(item []byte, why string) json.RawMessage {
	var rec struct {
		Item         json.RawMessage `json:"Item,omitempty"`
		Input        string          `json:"Input,omitempty"`
		ErrorMessage string          `json:"ErrorMessage"`
	}
	if json.Valid(item) {
		rec.Item = item
	} else {
		rec.Input = string(item)
	}
	rec.ErrorMessage = why
	b, _ := json.Marshal(rec)
	return b
}
