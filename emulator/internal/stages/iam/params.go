package iam

import (
	"reflect"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// storageValue is an attribute value, as the inputs' items hold them.
type storageValue = storage.Value

// The request's condition keys besides dynamodb:LeadingKeys (the
// developer guide's "Using IAM policy conditions for fine-grained
// access control", specifying-conditions.html), read from its input:
//
//   - dynamodb:Attributes: the top-level attribute names the request
//     names on the table: a read's projection (ProjectionExpression,
//     AttributesToGet), a put's item, an update's key and the
//     attributes its UpdateExpression (or AttributeUpdates) sets or
//     removes. Absent when the request names none (a read of whole
//     items, a delete). A batch or transaction names, per table, all
//     its items' attributes on that table;
//   - dynamodb:Select: a Query's or Scan's Select, or
//     SPECIFIC_ATTRIBUTES when it projects without one;
//   - dynamodb:ReturnValues: a single-item write's ReturnValues;
//   - dynamodb:ReturnConsumedCapacity: the request's.
//
// Each is absent when the request does not give it.

// requestContext is the condition keys of the request in, for its use
// of the table named table.
func requestContext(in any, table string) map[string][]string {
	ctx := map[string][]string{}
	set := func(key, v string) {
		if v != "" {
			ctx[key] = []string{v}
		}
	}
	var names attrNames
	switch in := in.(type) {
	case *service.GetItemInput:
		names.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames)
	case *service.BatchGetItemInput:
		if ka := in.RequestItems[table]; ka != nil {
			names.projection(ka.ProjectionExpression, ka.AttributesToGet, ka.ExpressionAttributeNames)
		}
	case *service.QueryInput:
		names.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames)
		set("dynamodb:select", selectOf(in.Select, names.any()))
	case *service.ScanInput:
		names.projection(in.ProjectionExpression, in.AttributesToGet.Names(), in.ExpressionAttributeNames)
		set("dynamodb:select", selectOf(in.Select, names.any()))
	case *service.PutItemInput:
		names.item(in.Item)
		set("dynamodb:returnvalues", in.ReturnValues)
	case *service.UpdateItemInput:
		names.update(in.Key, in.UpdateExpression, in.AttributeUpdates, in.ExpressionAttributeNames)
		set("dynamodb:returnvalues", in.ReturnValues)
	case *service.DeleteItemInput:
		set("dynamodb:returnvalues", in.ReturnValues)
	case *service.BatchWriteItemInput:
		for _, w := range in.RequestItems[table] {
			if w.PutRequest != nil {
				names.item(w.PutRequest.Item)
			}
		}
	case *service.TransactWriteItemsInput:
		for _, a := range in.TransactItems {
			switch {
			case a.Put != nil && deref(a.Put.TableName) == table:
				names.item(a.Put.Item)
			case a.Update != nil && deref(a.Update.TableName) == table:
				names.update(a.Update.Key, a.Update.UpdateExpression, nil, a.Update.ExpressionAttributeNames)
			}
		}
	case *service.TransactGetItemsInput:
		for _, g := range in.TransactItems {
			if g.Get != nil && deref(g.Get.TableName) == table {
				names.projection(g.Get.ProjectionExpression, nil, g.Get.ExpressionAttributeNames)
			}
		}
	}
	if names.set {
		ctx["dynamodb:attributes"] = names.list
	}
	set("dynamodb:returnconsumedcapacity", stringField(in, "ReturnConsumedCapacity"))
	return ctx
}

// selectOf is a read's dynamodb:Select: given, or SPECIFIC_ATTRIBUTES
// when it projects.
func selectOf(sel *string, projects bool) string {
	if sel != nil {
		return *sel
	}
	if projects {
		return "SPECIFIC_ATTRIBUTES"
	}
	return ""
}

// attrNames gathers the attribute names of dynamodb:Attributes, each
// once.
type attrNames struct {
	list []string
	set  bool // the request names attributes (list may then be empty)
}

func (n *attrNames) add(name string) {
	n.set = true
	if !slices.Contains(n.list, name) {
		n.list = append(n.list, name)
	}
}

func (n *attrNames) any() bool { return n.set }

// projection adds the top-level names of a projection (an expression,
// else the legacy AttributesToGet).
func (n *attrNames) projection(pe *string, toGet []string, names map[string]string) {
	if pe != nil {
		if p, err := expr.ParseProjection(*pe); err == nil {
			for _, path := range p.Paths {
				n.path(path, names)
			}
		}
		return
	}
	for _, a := range toGet {
		n.add(a)
	}
}

// item adds an item's attribute names.
func (n *attrNames) item(item map[string]storageValue) {
	n.set = true
	for k := range item {
		n.add(k)
	}
	slices.Sort(n.list)
}

// update adds an update's key names and the top-level names its
// expression (or legacy AttributeUpdates) writes.
func (n *attrNames) update(key map[string]storageValue, ue *string, legacy map[string]service.AttributeValueUpdate, names map[string]string) {
	for k := range key {
		n.add(k)
	}
	if ue != nil {
		if u, err := expr.ParseUpdate(*ue); err == nil {
			for _, c := range u.Clauses {
				for _, a := range c.Actions {
					n.path(a.Path, names)
				}
			}
		}
	}
	for k := range legacy {
		n.add(k)
	}
	slices.Sort(n.list)
}

// path adds a document path's top-level name, #placeholders resolved.
func (n *attrNames) path(p *expr.PathExpr, names map[string]string) {
	if p == nil || len(p.Elems) == 0 {
		return
	}
	name := p.Elems[0].Name
	if strings.HasPrefix(name, "#") {
		v, ok := names[name]
		if !ok {
			return
		}
		name = v
	}
	n.add(name)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// stringField is the string (or *string) field name of the struct in
// points to ("": none), for the inputs of features' operations
// (PartiQL's) the stage does not name.
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
