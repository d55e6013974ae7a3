package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Loading AWS's DynamoDB MCP server's data model (dynamodb_data_model.json,
// which its validation loads into DynamoDB Local): "tables" are
// CreateTable requests, sent as they are, and "items" per table
// BatchWriteItem's PutRequests, put in batches of 25. The model is read
// as a design first (insights.ParseDesign: every member known, every
// item of a declared table), and every item checked as a Workbench
// model's are (DynamoDB JSON, the key attributes present, of their
// declared types, not empty), so that a malformed model creates nothing.

// isDataModel reports whether src is an object with the data model's
// "tables" and no Workbench "DataModel".
func isDataModel(src []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(src), &top) != nil {
		return false
	}
	_, tables := top["tables"]
	_, wb := top["DataModel"]
	return tables && !wb
}

// keyDef is a key schema's partition and sort key.
func keyDef(ks []keyElem) insights.KeyDef {
	var k insights.KeyDef
	for _, e := range ks {
		switch e.KeyType {
		case "HASH":
			k.Partition = e.AttributeName
		case "RANGE":
			k.Sort = e.AttributeName
		}
	}
	return k
}

// requestKeyDef is keyDef of a request's key schema.
func requestKeyDef(ks []shapes.KeySchemaElement[*string]) insights.KeyDef {
	out := make([]keyElem, len(ks))
	for i, e := range ks {
		out[i] = keyElem{AttributeName: str(e.AttributeName), KeyType: str(e.KeyType)}
	}
	return keyDef(out)
}

// str is *p, "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// dataModelPlan reads a data model's tables and items.
func dataModelPlan(src []byte) ([]loadTable, error) {
	d, err := insights.ParseDesign(src)
	if err != nil {
		return nil, inputErrorf("%v", err)
	}
	if d.Format != insights.FormatDataModel {
		return nil, inputErrorf("%s: not AWS's DynamoDB MCP data model", d.Format)
	}
	var m struct {
		Tables []json.RawMessage
		Items  map[string][]struct {
			PutRequest struct{ Item json.RawMessage }
		}
	}
	if err := json.Unmarshal(src, &m); err != nil {
		return nil, inputErrorf("dynamodb-data-model: %v", err)
	}
	var plan []loadTable
	for i, raw := range m.Tables {
		var t shapes.CreateTableInput // a CreateTable request, sent as it is
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, inputErrorf("dynamodb-data-model: tables[%d]: %v", i, err)
		}
		name := str(t.TableName)
		wt := insights.WorkbenchTable{Name: name, Key: requestKeyDef(t.KeySchema), AttrTypes: map[string]string{}}
		for _, a := range t.AttributeDefinitions {
			wt.AttrTypes[str(a.AttributeName)] = str(a.AttributeType)
		}
		for _, x := range t.GlobalSecondaryIndexes {
			wt.Indexes = append(wt.Indexes, insights.WorkbenchIndex{Name: str(x.IndexName), Key: requestKeyDef(x.KeySchema)})
		}
		for _, x := range t.LocalSecondaryIndexes {
			wt.Indexes = append(wt.Indexes, insights.WorkbenchIndex{Name: str(x.IndexName), Key: requestKeyDef(x.KeySchema)})
		}
		lt := loadTable{name: name, create: raw}
		for j, r := range m.Items[name] {
			if err := checkSampleItem(wt, r.PutRequest.Item); err != nil {
				return nil, inputErrorf("dynamodb-data-model: items.%s[%d]: %v", name, j, err)
			}
			lt.items = append(lt.items, r.PutRequest.Item)
		}
		plan = append(plan, lt)
	}
	if len(plan) == 0 {
		return nil, inputErrorf("dynamodb-data-model: the model declares no table")
	}
	return plan, nil
}
