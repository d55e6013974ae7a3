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

// dataModelTable is what the checks read of a CreateTable request.
type dataModelTable struct {
	TableName              string                               `json:"TableName"`
	KeySchema              []keyElem                            `json:"KeySchema"`
	AttributeDefinitions   []shapes.AttributeDefinition[string] `json:"AttributeDefinitions"`
	GlobalSecondaryIndexes []dataModelIndex                     `json:"GlobalSecondaryIndexes"`
	LocalSecondaryIndexes  []dataModelIndex                     `json:"LocalSecondaryIndexes"`
}

// dataModelIndex is what the checks read of a secondary index of a
// dataModelTable.
type dataModelIndex struct {
	IndexName string    `json:"IndexName"`
	KeySchema []keyElem `json:"KeySchema"`
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
		var t dataModelTable
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, inputErrorf("dynamodb-data-model: tables[%d]: %v", i, err)
		}
		wt := insights.WorkbenchTable{Name: t.TableName, Key: keyDef(t.KeySchema), AttrTypes: map[string]string{}}
		for _, a := range t.AttributeDefinitions {
			wt.AttrTypes[a.AttributeName] = a.AttributeType
		}
		for _, x := range append(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes...) {
			wt.Indexes = append(wt.Indexes, insights.WorkbenchIndex{Name: x.IndexName, Key: keyDef(x.KeySchema)})
		}
		lt := loadTable{name: t.TableName, create: raw}
		for j, r := range m.Items[t.TableName] {
			if err := checkSampleItem(wt, r.PutRequest.Item); err != nil {
				return nil, inputErrorf("dynamodb-data-model: items.%s[%d]: %v", t.TableName, j, err)
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
