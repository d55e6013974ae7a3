package service

import (
	"github.com/dynamoemu/dynamoemu/faults"
	"github.com/dynamoemu/dynamoemu/partiql"
)

// Fault rules on the operations that do not decide per table use (the
// control plane, PartiQL's statements, the Streams API): one decision per
// call, with the table its TableName names and no key, after the body is
// decoded and before the operation validates it. So a rule can fail a
// CreateTable with InternalServerError or hold an ExecuteStatement; the
// data-plane operations (fxHooked) decide after validation, per item.

// fxHooked are the operations that call fxBegin themselves.
var fxHooked = map[string]bool{
	"GetItem": true, "PutItem": true, "UpdateItem": true, "DeleteItem": true,
	"Query": true, "Scan": true, "BatchGetItem": true, "BatchWriteItem": true,
	"TransactWriteItems": true, "TransactGetItems": true, "ExecuteTransaction": true,
	"ExecuteStatement": true, // fxStatement, once the statement is parsed
}

// fxOperation runs the fault rules on a call of an operation not in
// fxHooked, with in its decoded input. Nil when nothing fires.
func (c *call) fxOperation(op string, in any) error {
	inj := c.svc.fx.inj
	if !inj.Active() || fxHooked[op] {
		return nil
	}
	name, index := fxTargetOf(in)
	call := faults.Call{Op: op, Table: name, Index: index}
	f := inj.Decide(call)
	if f.Delay > 0 {
		if err := c.sleep(f.Delay); err != nil {
			return err
		}
	}
	if !f.Fails() {
		return nil
	}
	u := &fxUse{c: c, t: &table{name: call.Table, arn: c.tableARN(call.Table)}, index: index, gsi: index != ""}
	return u.faultError(f.Kind, f.Message)
}

// statementTarget is the table and index a PartiQL statement names.
func statementTarget(st partiql.Statement) (table, index string) {
	var t partiql.Target
	switch s := st.(type) {
	case *partiql.Select:
		t = s.From
	case *partiql.Insert:
		t = s.Into
	case *partiql.Update:
		t = s.Table
	case *partiql.Delete:
		t = s.From
	default:
		return "", ""
	}
	if t.Index != nil {
		index = t.Index.Text
	}
	return t.Table.Text, index
}

// fxStatement runs the fault rules on an ExecuteStatement or one
// statement of a BatchExecuteStatement, once it is parsed: with the
// table and index it names, and no key (rules by key do not match
// PartiQL statements).
func (c *call) fxStatement(st partiql.Statement) error {
	inj := c.svc.fx.inj
	if !inj.Active() {
		return nil
	}
	name, index := statementTarget(st)
	f := inj.Decide(faults.Call{Op: c.op, Table: name, Index: index})
	if f.Delay > 0 {
		if err := c.sleep(f.Delay); err != nil {
			return err
		}
	}
	if !f.Fails() {
		return nil
	}
	u := &fxUse{c: c, t: &table{name: name, arn: c.tableARN(name)}, index: index, gsi: index != ""}
	return u.faultError(f.Kind, f.Message)
}
