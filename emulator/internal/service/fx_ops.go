package service

import "github.com/dynamoemu/dynamoemu/internal/faults"

// Fault rules on the operations that do not decide per table use (the
// control plane, the Streams API): one decision per call, with the table
// it names (by name or ARN: fx_target.go) and no key, after the body is
// decoded and before the operation validates it. So a rule can fail a
// CreateTable with InternalServerError or hold a DescribeTable; the
// data-plane operations (registerDataPlane, pipeline.go) decide after
// validation, per item or statement.

// fxOperation runs the fault rules on a call of an operation not
// registered as data-plane, with in its decoded input. Nil when nothing
// fires.
func (c *call) fxOperation(op string, in any) error {
	inj := c.svc.fx.inj
	if !inj.Active() {
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
