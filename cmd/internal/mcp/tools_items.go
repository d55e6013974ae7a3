package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The DynamoDB tools: each takes its operation's request as the AWS API
// reference gives it (DynamoDB JSON) and answers DynamoDB's response, with
// the server's notes (caps, automatic snapshots) in "_dynamoemu".

// Properties the DynamoDB tools share.
var (
	pTable  = prop{name: "TableName", typ: "string", desc: `e.g. "Orders"`}
	pKey    = prop{name: "Key", typ: "object", desc: `the full primary key, e.g. {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}`}
	pItem   = prop{name: "Item", typ: "object", desc: `the whole item, key included, e.g. {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}, "total": {"N": "12.5"}}`}
	pCond   = prop{name: "ConditionExpression", typ: "string", desc: `else ConditionalCheckFailedException, nothing written; e.g. "attribute_not_exists(pk)"`}
	pNames  = prop{name: "ExpressionAttributeNames", typ: "object", desc: `e.g. {"#s": "status"}`}
	pValues = prop{name: "ExpressionAttributeValues", typ: "object", desc: `e.g. {":v": {"S": "PAID"}}`}
	pProj   = prop{name: "ProjectionExpression", typ: "string", desc: `e.g. "pk, total, #s"`}
	pRCC    = prop{name: "ReturnConsumedCapacity", typ: "string", enum: []string{"INDEXES", "TOTAL", "NONE"}}
	pRV     = prop{name: "ReturnValues", typ: "string", enum: []string{"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"}}
	pIndex  = prop{name: "IndexName", typ: "string", desc: `a GSI or LSI to read`}
	pLimit  = prop{name: "Limit", typ: "integer", desc: "items to read at most (lowered to the server's cap)"}
	pFilter = prop{name: "FilterExpression", typ: "string", desc: `drops items after they are read and paid for`}
	pStart  = prop{name: "ExclusiveStartKey", typ: "object", desc: "the previous page's LastEvaluatedKey"}
)

// passthrough sends the arguments as op's request.
func (s *Server) passthrough(api, op string) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		return s.eng.call(ctx, api, op, args)
	}
}

const refNote = " Request as in the AWS DynamoDB API reference; an unknown member is refused."

func (s *Server) itemTools() []*tool {
	return []*tool{
		{name: "get_item", title: "GetItem", schema: opSchema("GetItem", []string{"TableName", "Key"}, pTable, pKey, pProj, pNames,
			prop{name: "ConsistentRead", typ: "boolean"}, pRCC),
			desc: `Reads one item by its full primary key (DynamoDB GetItem): {"Item": {...}}, or {} when there is none.` + refNote,
			run:  s.getItem},
		{name: "put_item", title: "PutItem", write: true, destructive: true,
			schema: opSchema("PutItem", []string{"TableName", "Item"}, pTable, pItem, pCond, pNames, pValues, pRV, pRCC),
			desc:   `Creates an item or replaces the one with its key whole (DynamoDB PutItem); at most 400 KB.` + refNote,
			run:    s.passthrough(apiDynamoDB, "PutItem")},
		{name: "update_item", title: "UpdateItem", write: true, destructive: true,
			schema: opSchema("UpdateItem", []string{"TableName", "Key"}, pTable, pKey,
				prop{name: "UpdateExpression", typ: "string", desc: `e.g. "SET #s = :v, n = n + :one REMOVE draft"`},
				pCond, pNames, pValues, pRV, pRCC),
			desc: `Changes attributes of one item, creating it if need be (DynamoDB UpdateItem). Example: {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}, "UpdateExpression": "SET #s = :v", "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":v": {"S": "PAID"}}}.` + refNote,
			run:  s.passthrough(apiDynamoDB, "UpdateItem")},
		{name: "delete_item", title: "DeleteItem", write: true, destructive: true,
			schema: opSchema("DeleteItem", []string{"TableName", "Key"}, pTable, pKey, pCond, pNames, pValues, pRV, pRCC),
			desc:   `Deletes one item by its full primary key (DynamoDB DeleteItem); no such item is no error.` + refNote,
			run:    s.passthrough(apiDynamoDB, "DeleteItem")},
		{name: "batch_get_item", title: "BatchGetItem",
			schema: opSchema("BatchGetItem", []string{"RequestItems"}, prop{name: "RequestItems", typ: "object",
				desc: `per table, the keys to read (at most 100 in all), e.g. {"Orders": {"Keys": [{"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}], "ProjectionExpression": "pk, total"}}`}, pRCC),
			desc: `Reads up to 100 items by key from one or more tables (DynamoDB BatchGetItem). Keys not read come back in UnprocessedKeys: send them again. Items past the server's caps are left out and their keys put in UnprocessedKeys too.` + refNote,
			run:  s.batchGet},
		{name: "batch_write_item", title: "BatchWriteItem", write: true, destructive: true,
			schema: opSchema("BatchWriteItem", []string{"RequestItems"}, prop{name: "RequestItems", typ: "object",
				desc: `per table, up to 25 PutRequest or DeleteRequest in all, e.g. {"Orders": [{"PutRequest": {"Item": {"pk": {"S": "ORDER#2"}, "sk": {"S": "x"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}}}]}`}, pRCC),
			desc: `Puts and deletes up to 25 items across tables (DynamoDB BatchWriteItem); no conditions, not atomic. Writes not done come back in UnprocessedItems. More deletes than the server's threshold take a snapshot first (snapshot_restore undoes the batch).` + refNote,
			run:  s.batchWrite},
		{name: "transact_get_items", title: "TransactGetItems",
			schema: opSchema("TransactGetItems", []string{"TransactItems"}, prop{name: "TransactItems", typ: "array",
				desc: `up to 100 reads that see one point in time, e.g. [{"Get": {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}}}]`}, pRCC),
			desc: `Reads up to 100 items atomically (DynamoDB TransactGetItems): Responses in the order of TransactItems.` + refNote,
			run:  s.transactGet},
		{name: "transact_write_items", title: "TransactWriteItems", write: true, destructive: true,
			schema: opSchema("TransactWriteItems", []string{"TransactItems"}, prop{name: "TransactItems", typ: "array",
				desc: `up to 100 actions, all done or none: Put, Update, Delete, ConditionCheck, e.g. [{"Put": {"TableName": "Orders", "Item": {...}, "ConditionExpression": "attribute_not_exists(pk)"}}, {"Update": {"TableName": "Stock", "Key": {...}, "UpdateExpression": "SET n = n - :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}]`},
				prop{name: "ClientRequestToken", typ: "string", desc: "makes the call idempotent for 10 minutes"}, pRCC),
			desc: `Writes up to 100 items atomically (DynamoDB TransactWriteItems): a failed condition cancels all (TransactionCanceledException with a reason per action). More deletes than the server's threshold take a snapshot first.` + refNote,
			run:  s.transactWrite},
	}
}

// getItem is GetItem; an item over the byte cap comes whole, with a
// note, never cut.
func (s *Server) getItem(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "GetItem", args)
	if err != nil || len(ans) <= s.opts.MaxBytes {
		return ans, err
	}
	return fitted(withNotes(ans, s.oversizeNote(len(ans)))), nil
}

// batchGet is BatchGetItem, fitted to the caps.
func (s *Server) batchGet(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "BatchGetItem", args)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitBatchGet(args, ans)
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}

// deletesOf counts the deletes of a BatchWriteItem or TransactWriteItems
// request, and names their tables.
func deletesOf(args json.RawMessage) (int, []string) {
	var b struct {
		RequestItems  map[string][]struct{ DeleteRequest *json.RawMessage }
		TransactItems []struct{ Delete *struct{ TableName string } }
	}
	_ = json.Unmarshal(args, &b)
	n, tables := 0, map[string]bool{}
	for table, reqs := range b.RequestItems {
		for _, r := range reqs {
			if r.DeleteRequest != nil {
				n++
				tables[table] = true
			}
		}
	}
	for _, a := range b.TransactItems {
		if a.Delete != nil {
			n++
			tables[a.Delete.TableName] = true
		}
	}
	return n, sortedNames(tables)
}

// snapshotDeletes takes the automatic snapshot before a call of op that
// deletes n items of tables, when n is over the threshold.
func (s *Server) snapshotDeletes(op string, n int, tables []string) string {
	if n <= s.opts.SnapshotDeletes {
		return ""
	}
	_, note := s.autoSnapshot(fmt.Sprintf("before %s deleting %d items of %s", op, n, strings.Join(tables, ", ")))
	return note
}

// batchWrite is BatchWriteItem, with an automatic snapshot before many
// deletes.
func (s *Server) batchWrite(ctx context.Context, args json.RawMessage) (any, error) {
	n, tables := deletesOf(args)
	note := s.snapshotDeletes("BatchWriteItem", n, tables)
	ans, err := s.eng.call(ctx, apiDynamoDB, "BatchWriteItem", args)
	if err != nil {
		return nil, s.withSnapshotNote(err, note)
	}
	return withNotes(ans, note), nil
}

// transactGet is TransactGetItems, fitted to the byte cap.
func (s *Server) transactGet(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "TransactGetItems", args)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitItemList(ans, "Responses", "read the rest with a TransactItems of their Gets alone")
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}

// transactWrite is TransactWriteItems, with an automatic snapshot before
// many deletes.
func (s *Server) transactWrite(ctx context.Context, args json.RawMessage) (any, error) {
	n, tables := deletesOf(args)
	note := s.snapshotDeletes("TransactWriteItems", n, tables)
	ans, err := s.eng.call(ctx, apiDynamoDB, "TransactWriteItems", args)
	if err != nil {
		return nil, s.withSnapshotNote(err, note)
	}
	return withNotes(ans, note), nil
}

// withSnapshotNote adds to a failed call's error that a snapshot was
// taken before it (the call changed nothing: DynamoDB refuses a request
// whole).
func (s *Server) withSnapshotNote(err error, note string) error {
	if note == "" {
		return err
	}
	return fmt.Errorf("%w (%s; the call changed nothing)", err, note)
}
