package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Bindings are a request's statements, each with its parameters, in
// order ("" for a statement not given): what a stage that reads what a
// statement names parses (the IAM stage's condition keys: which
// attributes a statement reads or writes, which item it is of).

// Bindings are the request's one statement.
func (in *ExecuteStatementInput) Bindings() []lower.Binding {
	return []lower.Binding{binding(textOf(in.Statement), paramValues(in.Parameters.Kept()))}
}

// Bindings are the batch's statements.
func (in *BatchExecuteStatementInput) Bindings() []lower.Binding {
	out := make([]lower.Binding, len(in.Statements))
	for i, s := range in.Statements {
		vals := make([]storage.Value, len(s.Parameters))
		for j, p := range s.Parameters {
			vals[j] = p.Value
		}
		out[i] = binding(textOf(s.Statement), vals)
	}
	return out
}

// Bindings are the transaction's statements.
func (in *ExecuteTransactionInput) Bindings() []lower.Binding {
	out := make([]lower.Binding, len(in.TransactStatements))
	for i, s := range in.TransactStatements {
		out[i] = binding(textOf(s.Statement), paramValues(s.Parameters))
	}
	return out
}

func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// paramValues are the values of a statement's parameters.
func paramValues(ps []wire.AttributeValue) []storage.Value {
	out := make([]storage.Value, len(ps))
	for i, p := range ps {
		out[i] = p.Value
	}
	return out
}
