package partiqlops

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL SELECT: lowered against the table or index it names (key
// conditions for the partitions the WHERE clause fixes, the whole WHERE
// as a filter, the SELECT list), then read by the core as Query pages
// (seeking into each partition) or a Scan, with Limit and a NextToken
// (service.Call.ReadStatement). An index with a multi-attribute key is
// refused, as DynamoDB Local refuses it.

func runSelect(c service.Call, b lower.Binding, s *partiql.Select, opt stmtOptions) (*ExecuteStatementOutput, error) {
	t, x, target, err := c.SelectTarget(s.From.Table.Text, indexName(s))
	if err != nil {
		return nil, err
	}
	if x.Global() && opt.consistent {
		return nil, apierr.Validation(apierr.MsgPartiQLGSIConsistentRead)
	}
	sel, err := lower.LowerSelect(b, s, target)
	if err != nil {
		return nil, lowered(err)
	}
	page, err := c.ReadStatement(&service.StatementRead{Table: t, Index: x, Keys: target.Keys, Select: sel,
		Limit: opt.limit, Consistent: opt.consistent, Capacity: opt.capacity, NextToken: opt.nextToken})
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{Items: page.Items, stored: page.Stored, ConsumedCapacity: page.Capacity}
	if sel.Columns != nil {
		// The stored items stay valid after the walk; project them now,
		// from their records (columns.go).
		out.Items, out.stored = nil, projectColumns(sel.Columns, page.Stored)
	}
	if page.LastKey != nil {
		out.NextToken = encodeNextToken(page.LastKey)
	}
	return out, nil
}

// indexName is the index a SELECT names ("table"."index"), nil for the
// table.
func indexName(s *partiql.Select) *string {
	if s.From.Index == nil {
		return nil
	}
	return &s.From.Index.Text
}

// A NextToken is the base64 of the last evaluated key's DynamoDB JSON.
func encodeNextToken(key storage.Item) string {
	return base64.StdEncoding.EncodeToString(wire.AppendItem(nil, key))
}
