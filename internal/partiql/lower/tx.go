package lower

import (
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The single-item statements of ExecuteTransaction and
// BatchExecuteStatement: an EXISTS condition check, a SELECT of one item.

// LowerExists lowers the SELECT of an EXISTS(...) of ExecuteTransaction: a
// table (not an index), the full key and at least one condition besides
// (DynamoDB Local and AWS: "EXISTS() must contain a single item read with
// additional condition"). The condition holds only for an item that exists
// (the developer guide: EXISTS is TRUE for a non-empty result).
func LowerExists(b Binding, s *partiql.Exists, ks storage.KeySchema) (*Delete, error) {
	if s.Query.From.Index != nil {
		return nil, errPlain(msgTxIndexOp)
	}
	l := &lowerer{b}
	d, err := l.keyAndCondition(ks, s.Query.Where, false)
	if err != nil {
		if err.Msg == msgKeyEquality {
			return nil, errPlain(msgTxExists)
		}
		return nil, err
	}
	if d.Cond == nil {
		return nil, errPlain(msgTxExists)
	}
	return d, nil
}

// Get is a SELECT of one item by its full primary key.
type Get struct {
	Key        storage.Item
	Projection *expr.Projection // nil for SELECT *
	Columns    []Column         // nil for SELECT *
}

// LowerTxGet lowers a SELECT of a read ExecuteTransaction: a table (not an
// index), the SELECT list, and a WHERE clause that is exactly the full
// primary key. The WHERE clause's own errors come first (a number out of
// range, MISSING compared with =: DynamoDB Local); a key of the wrong type
// is an error of the item (Item: the transaction is cancelled with it as
// the statement's reason); any other WHERE clause is "Select statements
// within ExecuteTransaction must specify the primary key in the where
// clause."
func LowerTxGet(b Binding, s *partiql.Select, ks storage.KeySchema) (*Get, error) {
	if s.From.Index != nil {
		return nil, errPlain(msgTxIndexRead)
	}
	l := &lowerer{b}
	g, err := l.get(s, ks, msgTxSelectKey)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// LowerBatchGet lowers a SELECT of BatchExecuteStatement: one item by its
// full primary key, from a table (AWS: "Select statements within
// BatchExecuteStatement must specify the primary key in the where
// clause." for an index, a WHERE clause with more than the key, or
// without it), after the multi-attribute key refusal (AWS reports that
// first).
func LowerBatchGet(b Binding, s *partiql.Select, t Target) (*Get, error) {
	if t.Multi {
		return nil, errPlain(msgMultiKey)
	}
	if s.From.Index != nil {
		return nil, errPlain(msgBatchSelectKey)
	}
	l := &lowerer{b}
	g, err := l.get(s, t.Keys, msgBatchSelectKey)
	if err != nil {
		return nil, err
	}
	return g, nil
}

func (l *lowerer) get(s *partiql.Select, ks storage.KeySchema, needKey string) (*Get, *Error) {
	g := &Get{}
	if !s.Star {
		var err *Error
		if g.Columns, g.Projection, err = l.projection(s.Projection); err != nil {
			return nil, err
		}
	}
	// The WHERE clause is checked as a condition first, as DynamoDB Local
	// does: a value it cannot store (sk = 1e200) or MISSING compared with
	// = is that error, not the missing key's.
	if s.Where != nil {
		if _, err := l.condition(s.Where); err != nil {
			return nil, err
		}
	}
	key, rest, err := l.fullKey(ks, s.Where)
	switch {
	case err != nil && err.Msg != msgKeyEquality:
		return nil, err
	case err != nil || len(rest) > 0:
		return nil, errPlain(needKey)
	}
	g.Key = key
	return g, nil
}
