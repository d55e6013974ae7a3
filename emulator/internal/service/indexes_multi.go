package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Multi-attribute GSI keys: up to four partition key and four sort key
// attributes per global secondary index (AWS's developer guide,
// "Multi-attribute keys pattern"; DynamoDB Local 3.3.0 has them). A key
// schema of one HASH and at most one RANGE takes the one-attribute path
// with its messages; anything else is checked here. The messages are
// DynamoDB Local's (AWS publishes the rules, not the wording).

// multiSchema is index x's key in expr's terms.
func multiSchema(x *tablespec.IndexDef) expr.MultiKeySchema {
	return expr.MultiKeySchema{Partition: x.PartAttrs, Sort: x.SortAttrs}
}

// multiStartKey validates an ExclusiveStartKey of a Query on a
// multi-attribute index: the shape indexStartKey checks, and inside the
// key condition.
func multiStartKey(t *table, x *tablespec.IndexDef, esk storage.Item, kc *expr.MultiKeyCondition) (storage.Item, error) {
	esk, err := indexStartKey(t, x, esk, nil)
	if err != nil {
		return nil, err
	}
	if !kc.Match(multiSchema(x), esk) {
		return nil, apierr.Validation(apierr.MsgStartKeyRangePred)
	}
	return esk, nil
}

// queryMulti reads one Query page of a multi-attribute index, through the
// same pipeline stages as any Query (beginRead; the key
// condition as multiKey gives it).
func queryMulti(c *call, t *table, x *tablespec.IndexDef, comp *expr.Compiler, in *QueryInput) (*QueryOutput, error) {
	var kc *expr.MultiKeyCondition
	var err error
	if in.KeyConditionExpression != nil {
		kc, err = comp.MultiKeyCondition(*in.KeyConditionExpression, multiSchema(x))
	} else {
		kc, err = expr.MultiKeyConditions(in.KeyConditions, multiSchema(x))
	}
	if err != nil {
		return nil, err
	}
	for i, a := range x.PartAttrs {
		if err := tablespec.CheckKeyValue(a.Name, kc.Partition[i], true); err != nil {
			return nil, err
		}
	}
	req, err := queryRequest(t, comp, in, func(names []string) (string, bool) {
		for _, n := range names {
			if x.IsKeyAttr(n) {
				return n, true
			}
		}
		return "", false
	})
	if err != nil {
		return nil, err
	}
	q := storage.IndexQuery{
		Partition:  kc.Partition,
		SortPrefix: kc.SortPrefix,
		Sort:       kc.Sort,
		Forward:    in.ScanIndexForward == nil || *in.ScanIndexForward,
	}
	var out *QueryOutput
	err = c.useRead(t, x, multiKey(kc), nil, access.Query, req.filter != nil, func(u *readUse) error { //gcassert:noescape
		var err error
		out, err = queryIndexPage(u, t, x, req, in, q, func(esk storage.Item) (storage.Item, error) {
			return multiStartKey(t, x, esk, kc)
		})
		return err
	})
	return out, err
}

// multiKey is the key condition of a Query of a multi-attribute index as
// the stages see it: one partition
// value (the attribute's own value when the partition key has one
// attribute; with several, their text joined by "#", the way a
// single-attribute design writes a composite key), and the condition on
// the first sort key attribute when the query fixes no sort prefix
// (none otherwise).
func multiKey(kc *expr.MultiKeyCondition) access.KeyCondition {
	var pk storage.Value
	switch len(kc.Partition) {
	case 0:
	case 1:
		pk = kc.Partition[0]
	default:
		b := make([]byte, 0, 64)
		for i, v := range kc.Partition {
			if i > 0 {
				b = append(b, '#')
			}
			b = append(b, v.Str()...)
		}
		pk = storage.S(string(b))
	}
	if len(kc.SortPrefix) > 0 {
		return access.KeyCondition{Partition: pk}
	}
	return queryKey(pk, kc.Sort)
}
