package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
)

// PartiQL SELECT: lowered against the table or index it names (key
// conditions for the partitions the WHERE clause fixes, the whole WHERE
// as a filter, the SELECT list), then read by the core as Query pages
// (seeking into each partition) or a Scan, with Limit and a NextToken
// (select_read.go, over service.Call.ReadPage; the token: token.go). An
// index with a multi-attribute key is refused, as DynamoDB Local refuses
// it.

func runSelect(c service.Call, b lower.Binding, s *partiql.Select, opt stmtOptions) (*ExecuteStatementOutput, error) {
	t, x, target, err := selectTarget(c, s.From.Table.Text, indexName(s))
	if err != nil {
		return nil, err
	}
	if x != nil && !x.Local && opt.consistent { // a GSI
		return nil, apierr.Validation(apierr.MsgPartiQLGSIConsistentRead)
	}
	sel, err := lower.LowerSelect(b, s, target)
	if err != nil {
		return nil, lowered(err)
	}
	if opt.nextToken != nil {
		opt.tokenFP = fingerprint(b) // token.go
	}
	page, err := readSelect(c, t, x, target.Keys, sel, opt) // select_read.go
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
		out.NextToken = encodeNextToken(page.LastKey, fingerprint(b))
	}
	return out, nil
}

// selectTarget looks up what a SELECT reads: the table (as the data
// plane looks it up), and its index of that name (index nil: the table,
// x nil), with their key schema as the lowering takes it. An index with
// a multi-attribute key is lower.Target.Multi.
func selectTarget(c service.Call, table string, index *string) (service.Table, *tablespec.IndexDef, lower.Target, error) {
	t, err := c.LookupDataTable(table)
	if err != nil {
		return service.Table{}, nil, lower.Target{}, err
	}
	if index == nil {
		return t, nil, lower.Target{Keys: t.Schema()}, nil
	}
	x := tableIndex(t, *index)
	if x == nil {
		return service.Table{}, nil, lower.Target{}, apierr.Validation(apierr.MsgPartiQLNoSuchIndex)
	}
	if x.Multi() {
		return t, x, lower.Target{Multi: true}, nil
	}
	return t, x, lower.Target{Keys: x.Schema}, nil
}

// tableIndex finds t's secondary index of that name; nil when there is
// none.
func tableIndex(t service.Table, name string) *tablespec.IndexDef {
	gsis, lsis := t.Indexes()
	for _, defs := range [2][]*tablespec.IndexDef{gsis, lsis} {
		for _, d := range defs {
			if d.Name == name {
				return d
			}
		}
	}
	return nil
}

// indexName is the index a SELECT names ("table"."index"), nil for the
// table.
func indexName(s *partiql.Select) *string {
	if s.From.Index == nil {
		return nil
	}
	return &s.From.Index.Text
}
