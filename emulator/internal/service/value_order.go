package service

import "sync"

// The values layer of validation_order.go: an error of an attribute value
// (a malformed number, a duplicate set member, an empty attribute name, a
// value nested too deep, ...) is read past by the request decoder
// (wire.Deferred) and reported here, after the request's member
// constraints, expression syntax and sizes and before the table lookup:
// lookupTable reports it if the operation has not, so no table is read or
// written with it pending.

// deferredValueOps are the operations that report a value's error at its
// place; every other operation reports it at once, before its own checks.
// Scan is not one: in us-east-1 it answers a ScanFilter value nested too
// deep before the misuse of ConditionalOperator (paritysuite/dynamodb-
// conformance tests/tier3/validation-ordering/deepRequests.test.ts).
// Built at its first use, not at the server's start.
var deferredValueOps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PutItem":            true,
		"UpdateItem":         true,
		"DeleteItem":         true,
		"GetItem":            true,
		"Query":              true,
		"BatchGetItem":       true,
		"BatchWriteItem":     true,
		"TransactWriteItems": true,
		"TransactGetItems":   true,
	}
})

// valuesLayer returns the request's value error worded for the operation
// (valueLayer), once; nil when there is none.
func (c *call) valuesLayer() error {
	v := c.values
	if v == nil {
		return nil
	}
	c.values = nil
	return valueLayer(c.op, v.Err)
}

// valuesLayerAt is valuesLayer for the element i of the request's
// top-level list (a transaction's action i): the error if it is in that
// element or in no element of the list.
func (c *call) valuesLayerAt(i int) error {
	if v := c.values; v != nil && (v.Index == i || v.Index < 0) {
		return c.valuesLayer()
	}
	return nil
}
