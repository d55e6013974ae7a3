package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Loading a NoSQL Workbench data model, or AWS's DynamoDB MCP data model
// (dynamodb_data_model.json): its tables are created and its sample data
// put, through the DynamoDB API like any client's
// (cmd/dynamoemu's -load at start-up, the load_model tool). The whole
// model is checked first, sample items included, so that a malformed one
// creates nothing.

// LoadedTable is what loading did to one table of a model.
type LoadedTable struct {
	Table   string `json:"table"`
	Created bool   `json:"created"`
	Items   int    `json:"items"`
	Note    string `json:"note,omitempty"`
}

// LoadModel creates the tables of the NoSQL Workbench model (or AWS's
// DynamoDB MCP data model) src in emu's
// namespace accessKey/region ("" for local/us-east-1) and puts their
// sample items. A table that exists is left as it is, with its data.
func LoadModel(ctx context.Context, emu *emulator.Emulator, accessKey, region string, src []byte) ([]LoadedTable, error) {
	o := Options{AccessKey: accessKey, Region: region}.withDefaults()
	return loadModel(ctx, newEngine(emu, o.AccessKey, o.Region), src)
}

func (s *Server) loadModel(ctx context.Context, src []byte) ([]LoadedTable, error) {
	return loadModel(ctx, s.eng, src)
}

// loadTable is one table a load creates: its CreateTable request and
// its sample items, checked.
type loadTable struct {
	name   string
	create any
	items  []json.RawMessage
}

// loadPlan reads a model (a Workbench model, or AWS's DynamoDB MCP data
// model: load_datamodel.go) and checks every sample item, so that a
// malformed model creates nothing.
func loadPlan(src []byte) ([]loadTable, error) {
	if isDataModel(src) {
		return dataModelPlan(src)
	}
	m, _, err := insights.ParseWorkbenchModel(src)
	if err != nil {
		return nil, inputErrorf("%v", err)
	}
	plan := make([]loadTable, len(m.Tables))
	for i, t := range m.Tables {
		for j, raw := range t.Items {
			if err := checkSampleItem(t, raw); err != nil {
				return nil, inputErrorf("workbench: DataModel[%d] (%s) sample item %d: %v", i, t.Name, j, err)
			}
		}
		plan[i] = loadTable{name: t.Name, create: createTableRequest(t), items: t.Items}
	}
	return plan, nil
}

func loadModel(ctx context.Context, eng engine, src []byte) ([]LoadedTable, error) {
	plan, err := loadPlan(src)
	if err != nil {
		return nil, err
	}
	// The sample items are the model's, not the application's traffic:
	// the access-pattern report does not count the load's writes (it
	// pauses while they are put; requests other clients send meanwhile
	// go uncounted too, for those few milliseconds).
	if reps := eng.emu.Reports(); reps.Reporting() {
		reps.SetReporting(false)
		defer reps.SetReporting(true)
	}
	var out []LoadedTable
	// undo deletes the tables this load created: what DynamoDB refuses
	// that the checks above did not see (an item over 400 KB) leaves no
	// table behind, in memory or under -dbPath.
	undo := func(err error) ([]LoadedTable, error) {
		for _, lt := range out {
			if lt.Created {
				if derr := deleteMade(ctx, eng, lt.Table); derr != nil {
					return nil, fmt.Errorf("%w (and deleting table %s again: %v)", err, lt.Table, derr)
				}
			}
		}
		return nil, fmt.Errorf("%w: nothing was created", err)
	}
	for _, t := range plan {
		lt := LoadedTable{Table: t.name}
		_, err := eng.callJSON(ctx, apiDynamoDB, "CreateTable", t.create, nil)
		var ae *apiError
		switch {
		case errors.As(err, &ae) && ae.Type == "ResourceInUseException":
			lt.Note = "the table exists: left as it is, its sample data not put"
			out = append(out, lt)
			continue
		case err != nil:
			return undo(fmt.Errorf("creating table %s: %w", t.name, err))
		}
		lt.Created = true
		out = append(out, lt)
		for start := 0; start < len(t.items); start += 25 {
			batch := t.items[start:min(start+25, len(t.items))]
			var reqs []map[string]any
			for _, it := range batch {
				reqs = append(reqs, map[string]any{"PutRequest": map[string]json.RawMessage{"Item": it}})
			}
			if err := putAll(ctx, eng, t.name, reqs); err != nil {
				return undo(fmt.Errorf("putting the sample items of %s: %w", t.name, err))
			}
			out[len(out)-1].Items += len(batch)
		}
	}
	return out, nil
}

// putAll sends one BatchWriteItem for table and retries what comes back
// unprocessed (a throttled table), a few times.
func putAll(ctx context.Context, eng engine, table string, reqs []map[string]any) error {
	body := map[string]any{"RequestItems": map[string]any{table: reqs}}
	for range 5 {
		var ans struct {
			UnprocessedItems map[string][]map[string]any
		}
		if _, err := eng.callJSON(ctx, apiDynamoDB, "BatchWriteItem", body, &ans); err != nil {
			return err
		}
		left := ans.UnprocessedItems[table]
		if len(left) == 0 {
			return nil
		}
		body = map[string]any{"RequestItems": map[string]any{table: left}}
	}
	return fmt.Errorf("items still unprocessed after 5 tries (is the table throttled?)")
}

// checkSampleItem checks a sample item as DynamoDB would check its put:
// DynamoDB JSON (no empty set), the table's key attributes present, and
// every key attribute of the table and its GSIs that it holds of its
// declared type and, a string or binary, not empty.
func checkSampleItem(t insights.WorkbenchTable, raw json.RawMessage) error {
	it, err := itemOf(raw)
	if err != nil {
		return err
	}
	type keyAttr struct{ name, of string }
	attrs := []keyAttr{{t.Key.Partition, "the table"}, {t.Key.Sort, "the table"}}
	for _, x := range t.Indexes {
		attrs = append(attrs, keyAttr{x.Key.Partition, "index " + x.Name}, keyAttr{x.Key.Sort, "index " + x.Name})
	}
	for _, a := range attrs {
		if a.name == "" {
			continue
		}
		v, ok := it[a.name]
		if !ok {
			if a.of == "the table" {
				return fmt.Errorf("no %q, a key attribute of the table", a.name)
			}
			continue // not in the index: a sparse index
		}
		if want := storage.KindFromString(t.AttrTypes[a.name]); v.Kind() != want {
			return fmt.Errorf("key attribute %q of %s is %s, the model declares it %s", a.name, a.of, v.Kind(), t.AttrTypes[a.name])
		}
		if k := v.Kind(); (k == storage.KindS || k == storage.KindB) && len(v.Str()) == 0 {
			return fmt.Errorf("key attribute %q of %s is empty: a key value is at least 1 byte", a.name, a.of)
		}
	}
	return nil
}

// createTableRequest is CreateTable's request for a model's table.
func createTableRequest(t insights.WorkbenchTable) map[string]any {
	keySchema := func(k insights.KeyDef) []map[string]string {
		ks := []map[string]string{{"AttributeName": k.Partition, "KeyType": "HASH"}}
		if k.Sort != "" {
			ks = append(ks, map[string]string{"AttributeName": k.Sort, "KeyType": "RANGE"})
		}
		return ks
	}
	var defs []map[string]string
	names := make([]string, 0, len(t.AttrTypes))
	for a := range t.AttrTypes {
		names = append(names, a)
	}
	slices.Sort(names)
	for _, a := range names {
		defs = append(defs, map[string]string{"AttributeName": a, "AttributeType": t.AttrTypes[a]})
	}
	req := map[string]any{"TableName": t.Name, "KeySchema": keySchema(t.Key), "AttributeDefinitions": defs, "BillingMode": t.BillingMode}
	var throughput map[string]int64
	if t.BillingMode == "PROVISIONED" {
		throughput = map[string]int64{"ReadCapacityUnits": max(t.ReadCapacity, 1), "WriteCapacityUnits": max(t.WriteCapacity, 1)}
		req["ProvisionedThroughput"] = throughput
	}
	var gsis []map[string]any
	for _, x := range t.Indexes {
		proj := map[string]any{"ProjectionType": x.Projection}
		if x.Projection == "INCLUDE" {
			proj["NonKeyAttributes"] = x.NonKeyAttributes
		}
		g := map[string]any{"IndexName": x.Name, "KeySchema": keySchema(x.Key), "Projection": proj}
		if throughput != nil {
			g["ProvisionedThroughput"] = throughput
		}
		gsis = append(gsis, g)
	}
	if len(gsis) > 0 {
		req["GlobalSecondaryIndexes"] = gsis
	}
	return req
}
