package iam

import (
	"reflect"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// storageValue is an attribute value, as the inputs' items hold them.
type storageValue = storage.Value

// A use's condition keys besides dynamodb:LeadingKeys (the developer
// guide's "Using IAM policy conditions for fine-grained access
// control", specifying-conditions.html; the Service Authorization
// Reference's actions table says which action has which), read from
// the request's input for the item, batch table or transaction action
// the use is of:
//
//   - dynamodb:Attributes (attrs, names.go): GetItem, BatchGetItem,
//     Query, Scan, PutItem, UpdateItem, DeleteItem, BatchWriteItem,
//     ConditionCheckItem and the PartiQL actions;
//   - dynamodb:Select: the reads (GetItem, BatchGetItem, Query, Scan,
//     PartiQLSelect): the request's Select, else SPECIFIC_ATTRIBUTES
//     when it projects, else ALL_PROJECTED_ATTRIBUTES on an index (the
//     Query and Scan API references' default), else ALL_ATTRIBUTES
//     ("the Select parameter always has a value (ALL_ATTRIBUTES, unless
//     otherwise specified)", example 2);
//   - dynamodb:ReturnValues: the single-item writes' ReturnValues, a
//     transaction action's ReturnValuesOnConditionCheckFailure, a
//     PartiQL UPDATE's or DELETE's RETURNING, else NONE ("the
//     ReturnValues parameter always has a value (NONE unless otherwise
//     specified)", example 2);
//   - dynamodb:ReturnConsumedCapacity: the request's, else NONE, on
//     every action but the PartiQL ones;
//   - dynamodb:EnclosingOperation: TransactWriteItems,
//     TransactGetItems or ExecuteTransaction on the actions of a
//     transaction; absent otherwise;
//   - dynamodb:FullTableScan: on PartiQLSelect, true when the SELECT
//     reads no partition by its key (the PartiQL SELECT reference's
//     full table scan), else false.

// useFacts are the keys of one use, before they go into a request.
type useFacts struct {
	a         attrs
	attrsSet  bool // the action has dynamodb:Attributes
	sel       string
	rv        string
	rcc       string
	enclosing string
	fullScan  string
}

// useKeys puts the condition keys of the use u, of req's request, in
// r.
func useKeys(r *iampolicy.Request, u *service.TableUse, req *request) {
	f := factsOf(u, req)
	if f.attrsSet {
		r.Context["dynamodb:attributes"] = append([]string{}, f.a.list...)
		if f.a.every {
			r.Unbounded = map[string]bool{"dynamodb:attributes": true}
		}
	}
	set := func(k, v string) {
		if v != "" {
			r.Context[k] = []string{v}
		}
	}
	set("dynamodb:select", f.sel)
	set("dynamodb:returnvalues", f.rv)
	set("dynamodb:returnconsumedcapacity", f.rcc)
	set("dynamodb:enclosingoperation", f.enclosing)
	set("dynamodb:fulltablescan", f.fullScan)
}

// factsOf reads the keys of the use u from its request's input.
func factsOf(u *service.TableUse, req *request) *useFacts {
	f := &useFacts{}
	t := u.Table()
	switch in := u.Call().Input().(type) {
	case *service.GetItemInput:
		f.read(u, nil, f.a.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames))
		f.rcc = orNone(in.ReturnConsumedCapacity)
	case *service.BatchGetItemInput:
		if ka := batchGets(in, t); ka != nil {
			f.read(u, nil, f.a.projection(ka.ProjectionExpression, ka.AttributesToGet, ka.ExpressionAttributeNames))
		}
		f.rcc = orNone(in.ReturnConsumedCapacity)
	case *service.QueryInput:
		projects := f.a.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames)
		f.a.condition("FilterExpression", in.FilterExpression, in.ExpressionAttributeNames)
		if in.QueryFilter != nil {
			f.a.addAll(in.QueryFilter.Names())
		}
		f.read(u, in.Select, projects)
		f.rcc = orNone(in.ReturnConsumedCapacity)
	case *service.ScanInput:
		projects := f.a.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames)
		f.a.condition("FilterExpression", in.FilterExpression, in.ExpressionAttributeNames)
		if in.ScanFilter != nil {
			f.a.addAll(in.ScanFilter.Names())
		}
		f.read(u, in.Select, projects)
		f.rcc = orNone(in.ReturnConsumedCapacity)
	case *service.PutItemInput:
		f.a.item(in.Item)
		f.written(in.ConditionExpression, in.ExpressionAttributeNames, in.Expected.Names, in.ReturnValues, in.ReturnConsumedCapacity)
	case *service.UpdateItemInput:
		f.a.update(in.UpdateExpression, in.ExpressionAttributeNames)
		for _, k := range sortedKeys(in.AttributeUpdates) {
			f.a.add(k)
		}
		f.written(in.ConditionExpression, in.ExpressionAttributeNames, in.Expected.Names, in.ReturnValues, in.ReturnConsumedCapacity)
	case *service.DeleteItemInput:
		f.written(in.ConditionExpression, in.ExpressionAttributeNames, in.Expected.Names, in.ReturnValues, in.ReturnConsumedCapacity)
	case *service.BatchWriteItemInput:
		f.attrsSet = true
		for _, w := range batchWrites(in, t) {
			if w.PutRequest != nil {
				f.a.item(w.PutRequest.Item)
			}
		}
		f.rcc = orNone(in.ReturnConsumedCapacity)
	case *service.TransactWriteItemsInput:
		f.txWrite(u, in)
	case *service.TransactGetItemsInput:
		f.enclosing, f.rcc = "TransactGetItems", orNone(deref(in.ReturnConsumedCapacity))
		for _, g := range in.TransactItems {
			if g.Get != nil && sameTable(g.Get.TableName, t) && keyIs(u, g.Get.Key) {
				f.read(u, nil, f.a.projection(g.Get.ProjectionExpression, nil, g.Get.ExpressionAttributeNames))
			}
		}
	case statements:
		f.statement(u, req, in)
	}
	return f
}

// read sets the keys of a read: dynamodb:Select (sel given, or its
// default) and, unless it projects or counts, every attribute it
// returns: an index's projected ones, or every one.
func (f *useFacts) read(u *service.TableUse, sel *string, projects bool) {
	f.attrsSet = true
	x := indexOf(u)
	switch {
	case sel != nil && *sel != "":
		f.sel = *sel
	case projects:
		f.sel = "SPECIFIC_ATTRIBUTES"
	case x != nil:
		f.sel = "ALL_PROJECTED_ATTRIBUTES"
	default:
		f.sel = "ALL_ATTRIBUTES"
	}
	switch {
	case f.sel == "COUNT" || f.sel == "SPECIFIC_ATTRIBUTES":
	case f.sel == "ALL_PROJECTED_ATTRIBUTES" && x != nil && x.Projection.Type != "ALL":
		f.a.addAll(projected(u.Table(), x))
	default:
		f.a.every = true
	}
}

// written sets the keys of a single-item write: the names its
// condition (an expression, or the legacy Expected's) tests, its
// ReturnValues and ReturnConsumedCapacity.
func (f *useFacts) written(cond *string, names map[string]string, expected func() []string, rv, rcc string) {
	f.attrsSet = true
	f.a.condition("ConditionExpression", cond, names)
	f.a.addAll(expected())
	f.rv, f.rcc = orNone(rv), orNone(rcc)
}

// txWrite sets the keys of the TransactWriteItems action the use is
// of: the action on its table whose key is the use's (a transaction
// names an item once).
func (f *useFacts) txWrite(u *service.TableUse, in *service.TransactWriteItemsInput) {
	t := u.Table()
	f.attrsSet, f.enclosing, f.rcc = true, "TransactWriteItems", orNone(deref(in.ReturnConsumedCapacity))
	f.rv = "NONE"
	for _, a := range in.TransactItems {
		var rvoccf *string
		switch {
		case a.Put != nil && sameTable(a.Put.TableName, t) && keyIs(u, a.Put.Item) && u.Access() == insights.Put:
			f.a.item(a.Put.Item)
			f.a.condition("ConditionExpression", a.Put.ConditionExpression, a.Put.ExpressionAttributeNames)
			rvoccf = a.Put.ReturnValuesOnConditionCheckFailure
		case a.Update != nil && sameTable(a.Update.TableName, t) && keyIs(u, a.Update.Key) && u.Access() == insights.Update:
			f.a.update(a.Update.UpdateExpression, a.Update.ExpressionAttributeNames)
			f.a.condition("ConditionExpression", a.Update.ConditionExpression, a.Update.ExpressionAttributeNames)
			rvoccf = a.Update.ReturnValuesOnConditionCheckFailure
		case a.Delete != nil && sameTable(a.Delete.TableName, t) && keyIs(u, a.Delete.Key) && u.Access() == insights.Delete:
			f.a.condition("ConditionExpression", a.Delete.ConditionExpression, a.Delete.ExpressionAttributeNames)
			rvoccf = a.Delete.ReturnValuesOnConditionCheckFailure
		case a.ConditionCheck != nil && sameTable(a.ConditionCheck.TableName, t) && keyIs(u, a.ConditionCheck.Key) && !u.Write():
			f.a.condition("ConditionExpression", a.ConditionCheck.ConditionExpression, a.ConditionCheck.ExpressionAttributeNames)
			rvoccf = a.ConditionCheck.ReturnValuesOnConditionCheckFailure
		default:
			continue
		}
		// The developer guide's "Using IAM with DynamoDB transactions",
		// example 4: ReturnValues NONE "prevent[s] information from
		// being returned on a ConditionCheck failure".
		f.rv = orNone(deref(rvoccf))
	}
}

// orNone is v, or NONE when it is "".
func orNone(v string) string {
	if v == "" {
		return "NONE"
	}
	return v
}

// indexOf is the index the use reads (nil: the table).
func indexOf(u *service.TableUse) *tablespec.IndexDef {
	if u.Index() == "" {
		return nil
	}
	gsis, lsis := u.Table().Indexes()
	for _, x := range append(append([]*tablespec.IndexDef(nil), gsis...), lsis...) {
		if x.Name == u.Index() {
			return x
		}
	}
	return nil
}

// projected are the attributes an index of KEYS_ONLY or INCLUDE
// projection holds: the table's keys, its own, its non-key ones.
func projected(t service.Table, x *tablespec.IndexDef) []string {
	ks := t.Schema()
	out := []string{ks.Partition.Name}
	if ks.HasSort() {
		out = append(out, ks.Sort.Name)
	}
	for _, e := range x.KeySchema {
		out = append(out, e.Name)
	}
	return append(out, x.Projection.NonKey...)
}

// keyIs reports whether item holds the key of the use u (a full key:
// an item's use).
func keyIs(u *service.TableUse, item map[string]storageValue) bool {
	ks, kc := u.Table().Schema(), u.Key()
	if !storage.Equal(item[ks.Partition.Name], kc.Partition) {
		return false
	}
	return !ks.HasSort() || storage.Equal(item[ks.Sort.Name], kc.Sort)
}

// sameTable reports whether a request's TableName (a name or an ARN)
// names t.
func sameTable(name *string, t service.Table) bool {
	n := deref(name)
	return n != "" && (n == t.Info().Name || n == t.Info().ARN)
}

// batchGets are the BatchGetItem entry of the table t (named by its
// name or ARN; nil: none).
func batchGets(in *service.BatchGetItemInput, t service.Table) *service.KeysAndAttributes {
	if ka := in.RequestItems[t.Info().Name]; ka != nil {
		return ka
	}
	return in.RequestItems[t.Info().ARN]
}

// batchWrites are the BatchWriteItem requests of the table t.
func batchWrites(in *service.BatchWriteItemInput, t service.Table) []service.WriteRequest {
	if ws, ok := in.RequestItems[t.Info().Name]; ok {
		return ws
	}
	return in.RequestItems[t.Info().ARN]
}

// sortedKeys are a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// stringField is the string (or *string) field name of the struct in
// points to ("": none), for the inputs of features' operations the
// stage does not name.
func stringField(in any, name string) string {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	f := v.FieldByName(name)
	for f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() {
		f = f.Elem()
	}
	if f.IsValid() && f.Kind() == reflect.String {
		return f.String()
	}
	return ""
}
