package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A request as the access-pattern report sees it: its uses of tables and
// indexes, each an access (get, query, scan, put, update, delete) with a
// key condition. design_match matches them against the design; explain
// also says what serves the request, what it costs and what its filter
// drops.

// use is one use of a table or index by a request.
type use struct {
	q     insights.Request
	table *tableDesc
	item  storage.Item    // a put's item, for its size
	key   json.RawMessage // an update's or delete's key, to read the item's size
}

// explainOps are the operations explain takes; matchOps those
// design_match reads.
var (
	explainOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan"}
	matchOps   = append(slices.Clone(explainOps), "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems")
)

// usesOf returns the uses request req of operation op makes. A member
// the operation does not take, at any depth, is refused as a call of
// the operation refuses it: a misspelt KeyConditionExpression would be
// judged as a Scan.
func (s *Server) usesOf(ctx context.Context, op string, req json.RawMessage) ([]use, error) {
	if slices.Contains(matchOps, op) {
		if err := s.eng.checkMembers(op, req); err != nil {
			return nil, err
		}
	}
	r := &useReader{s: s, ctx: ctx, op: op, tables: map[string]*tableDesc{}}
	var in useRequest
	if err := json.Unmarshal(req, &in); err != nil {
		return nil, inputErrorf("the request is not %s's: %v", op, err)
	}
	switch op {
	case "GetItem", "UpdateItem", "DeleteItem", "PutItem":
		return r.single(&in)
	case "Query", "Scan":
		return r.read(&in)
	case "BatchGetItem":
		return r.batchGet(&in)
	case "BatchWriteItem":
		return r.batchWrite(&in)
	case "TransactGetItems", "TransactWriteItems":
		return r.transact(&in)
	}
	return nil, inputErrorf("operation %q: give one of %s", op, strings.Join(matchOps, ", "))
}

// useRequest is what usesOf reads of a request, whatever its operation.
type useRequest struct {
	TableName, IndexName      string
	Key, Item                 json.RawMessage
	KeyConditionExpression    *string
	KeyConditions             json.RawMessage
	FilterExpression          *string
	QueryFilter, ScanFilter   json.RawMessage
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]json.RawMessage
	RequestItems              map[string]json.RawMessage
	TransactItems             []map[string]json.RawMessage
}

// useReader reads the uses of one request of operation op, describing
// each table it names once.
type useReader struct {
	s      *Server
	ctx    context.Context
	op     string
	tables map[string]*tableDesc
}

// table describes the table name, or the design's table of that name
// when the namespace has none.
func (r *useReader) table(name string) (*tableDesc, error) {
	if d := r.tables[name]; d != nil {
		return d, nil
	}
	if name == "" {
		return nil, inputErrorf("the request names no TableName")
	}
	d, err := r.s.describe(r.ctx, name)
	var ae *apiError
	if errors.As(err, &ae) && ae.Type == "ResourceNotFoundException" {
		if dd, _ := r.s.liveDesign(); designTable(dd, name) != nil {
			d, err = designTable(dd, name), nil
		}
	}
	if err != nil {
		return nil, err
	}
	r.tables[name] = d
	return d, nil
}

// keyed is a use of a table by an item's key (or a put's item).
func (r *useReader) keyed(access insights.Access, tableName string, key json.RawMessage) (use, error) {
	d, err := r.table(tableName)
	if err != nil {
		return use{}, err
	}
	it, err := itemOf(key)
	if err != nil {
		return use{}, inputErrorf("%s: %v", tableName, err)
	}
	kc, err := keyCondition(d, it)
	if err != nil {
		return use{}, err
	}
	u := use{q: insights.Request{Op: r.op, Access: access, Table: d.TableName, Key: kc}, table: d}
	switch access {
	case insights.Put:
		u.item = it
	case insights.Update, insights.Delete:
		u.key = key
	}
	return u, nil
}

// single is the use of a GetItem, PutItem, UpdateItem or DeleteItem.
func (r *useReader) single(in *useRequest) ([]use, error) {
	if r.op == "PutItem" {
		if in.Item == nil {
			return nil, inputErrorf("PutItem's request has an Item")
		}
		u, err := r.keyed(insights.Put, in.TableName, in.Item)
		return []use{u}, err
	}
	if in.Key == nil {
		return nil, inputErrorf("%s's request has a Key", r.op)
	}
	access := map[string]insights.Access{"GetItem": insights.Get, "UpdateItem": insights.Update, "DeleteItem": insights.Delete}[r.op]
	u, err := r.keyed(access, in.TableName, in.Key)
	return []use{u}, err
}

// read is the use of a Query or a Scan.
func (r *useReader) read(in *useRequest) ([]use, error) {
	d, err := r.table(in.TableName)
	if err != nil {
		return nil, err
	}
	u := use{q: insights.Request{Op: r.op, Access: insights.Scan, Table: d.TableName, Index: in.IndexName,
		Filter: in.FilterExpression != nil || in.QueryFilter != nil || in.ScanFilter != nil}, table: d}
	if r.op == "Scan" {
		return []use{u}, nil
	}
	u.q.Access = insights.Query
	if in.KeyConditionExpression == nil {
		return nil, inputErrorf("the Query has no KeyConditionExpression (the legacy KeyConditions is not read here)")
	}
	if u.q.Key, err = queryKey(d, in.IndexName, *in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues); err != nil {
		return nil, err
	}
	return []use{u}, nil
}

// batchGet is the uses of a BatchGetItem: a get per key, table by
// table in name order.
func (r *useReader) batchGet(in *useRequest) ([]use, error) {
	var uses []use
	for _, name := range sortedNames(in.RequestItems) {
		var ka struct{ Keys []json.RawMessage }
		if err := json.Unmarshal(in.RequestItems[name], &ka); err != nil {
			return nil, inputErrorf("RequestItems.%s: %v", name, err)
		}
		for _, k := range ka.Keys {
			u, err := r.keyed(insights.Get, name, k)
			if err != nil {
				return nil, err
			}
			uses = append(uses, u)
		}
	}
	return uses, nil
}

// batchWrite is the uses of a BatchWriteItem: a put or delete per
// request, table by table in name order.
func (r *useReader) batchWrite(in *useRequest) ([]use, error) {
	var uses []use
	for _, name := range sortedNames(in.RequestItems) {
		var reqs []struct {
			PutRequest    *struct{ Item json.RawMessage }
			DeleteRequest *struct{ Key json.RawMessage }
		}
		if err := json.Unmarshal(in.RequestItems[name], &reqs); err != nil {
			return nil, inputErrorf("RequestItems.%s: %v", name, err)
		}
		for _, q := range reqs {
			var u use
			var err error
			switch {
			case q.PutRequest != nil:
				u, err = r.keyed(insights.Put, name, q.PutRequest.Item)
			case q.DeleteRequest != nil:
				u, err = r.keyed(insights.Delete, name, q.DeleteRequest.Key)
			default:
				err = inputErrorf("RequestItems.%s: a request is a PutRequest or a DeleteRequest", name)
			}
			if err != nil {
				return nil, err
			}
			uses = append(uses, u)
		}
	}
	return uses, nil
}

// transactAccess is the access of a kind of action of a transaction;
// false for a kind that is none.
func transactAccess(kind string) (insights.Access, bool) {
	switch kind {
	case "Get", "ConditionCheck":
		return insights.Get, true
	case "Put":
		return insights.Put, true
	case "Update":
		return insights.Update, true
	case "Delete":
		return insights.Delete, true
	}
	return 0, false
}

// transact is the uses of a TransactGetItems or TransactWriteItems: one
// per action.
func (r *useReader) transact(in *useRequest) ([]use, error) {
	var uses []use
	for i, a := range in.TransactItems {
		for kind, raw := range a {
			var act struct {
				TableName string
				Key, Item json.RawMessage
			}
			if err := json.Unmarshal(raw, &act); err != nil {
				return nil, inputErrorf("TransactItems[%d].%s: %v", i, kind, err)
			}
			access, ok := transactAccess(kind)
			if !ok {
				return nil, inputErrorf("TransactItems[%d]: %q is not Get, Put, Update, Delete or ConditionCheck", i, kind)
			}
			key := act.Key
			if access == insights.Put {
				key = act.Item
			}
			u, err := r.keyed(access, act.TableName, key)
			if err != nil {
				return nil, err
			}
			uses = append(uses, u)
		}
	}
	return uses, nil
}

// keyCondition is the key of item it in table d: its full key.
func keyCondition(d *tableDesc, it storage.Item) (insights.KeyCondition, error) {
	pk, sk, single := key(d.KeySchema)
	if !single {
		return insights.KeyCondition{}, fmt.Errorf("table %q has a multi-attribute key: not matched against designs", d.TableName)
	}
	kc := insights.KeyCondition{Partition: it[pk]}
	if !kc.Partition.IsValid() {
		return kc, inputErrorf("the key lacks %q, the partition key of table %q", pk, d.TableName)
	}
	if sk != "" {
		kc.SortOp, kc.Sort = insights.SortEQ, it[sk]
		if !kc.Sort.IsValid() {
			return kc, inputErrorf("the key lacks %q, the sort key of table %q", sk, d.TableName)
		}
	}
	return kc, nil
}

// queryKey compiles a Query's KeyConditionExpression against the key of
// the table or index it reads.
func queryKey(d *tableDesc, index, text string, names map[string]string, raw map[string]json.RawMessage) (insights.KeyCondition, error) {
	ks := d.KeySchema
	if index != "" {
		x := d.index(index)
		if x == nil {
			return insights.KeyCondition{}, inputErrorf("table %q has no index %q", d.TableName, index)
		}
		ks = x.keys
	}
	pk, sk, single := key(ks)
	if !single {
		return insights.KeyCondition{}, fmt.Errorf("%q has a multi-attribute key: not matched against designs", index)
	}
	kind := func(attr string) storage.Kind {
		for _, a := range d.AttributeDefinitions {
			if a.AttributeName == attr {
				return storage.KindFromString(a.AttributeType)
			}
		}
		return storage.KindS
	}
	schema := storage.KeySchema{Partition: storage.KeyAttr{Name: pk, Kind: kind(pk)}}
	if sk != "" {
		schema.Sort = storage.KeyAttr{Name: sk, Kind: kind(sk)}
	}
	values := map[string]storage.Value{}
	for name, v := range raw {
		val, err := valueOf(v)
		if err != nil {
			return insights.KeyCondition{}, inputErrorf("ExpressionAttributeValues %s: %v", name, err)
		}
		values[name] = val
	}
	kc, err := expr.NewCompiler(names, values).KeyCondition(text, schema)
	if err != nil {
		return insights.KeyCondition{}, inputErrorf("KeyConditionExpression: %v", err)
	}
	return insights.KeyCondition{Partition: kc.Partition, SortOp: insights.SortOp(kc.Sort.Op), Sort: kc.Sort.Values[0], Sort2: kc.Sort.Values[1]}, nil
}

// explanation is explain's answer.
type explanation struct {
	Operation string `json:"operation"`
	Table     string `json:"table"`
	Index     string `json:"index,omitempty"`
	// ServedBy says what the request reads or writes: the table's key, or
	// which index, with its keys.
	ServedBy string `json:"servedBy"`
	Access   string `json:"access"`
	Key      string `json:"keyCondition,omitempty"`
	// Pattern is the design's verdict; nil without a design.
	Pattern *insights.MatchView `json:"pattern,omitempty"`
	// Nearest is, when no pattern serves the request, the pattern nearest
	// to it and why it does not serve it.
	Nearest  string      `json:"nearestPattern,omitempty"`
	Capacity capacity    `json:"capacity"`
	Filter   *filterDrop `json:"filter,omitempty"`
	Notes    []string    `json:"notes,omitempty"`
}

// capacity is what a request consumes.
type capacity struct {
	ReadUnits  float64 `json:"readUnits"`
	WriteUnits float64 `json:"writeUnits"`
	// PerIndex is the units per table and index ("table", "index NAME").
	PerIndex map[string]float64 `json:"perIndex,omitempty"`
	How      string             `json:"how"`
}

// filterDrop is what a read's filter dropped.
type filterDrop struct {
	Read     int     `json:"itemsRead"`
	Returned int     `json:"itemsReturned"`
	Dropped  int     `json:"itemsDropped"`
	Share    float64 `json:"droppedShare"`
}

// explain answers the explain tool.
func (s *Server) explain(ctx context.Context, op string, req json.RawMessage) (*explanation, error) {
	switch op {
	case "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan":
	default:
		return nil, inputErrorf("explain takes one GetItem, PutItem, UpdateItem, DeleteItem, Query or Scan; design_match reads batches and transactions")
	}
	uses, err := s.usesOf(ctx, op, req)
	if err != nil {
		return nil, err
	}
	u := uses[0]
	ex := &explanation{Operation: op, Table: u.q.Table, Index: u.q.Index, Access: u.q.Access.String(), ServedBy: servedBy(u.table, u.q.Index)}
	if u.q.Access != insights.Scan {
		ex.Key = keyText(u.q.Key)
	}
	if d, err := s.liveDesign(); err == nil && d != nil {
		mv := d.Match(&u.q)
		ex.Pattern = &mv
		ex.Nearest = nearestPattern(d, u, mv, req)
	} else {
		ex.Notes = append(ex.Notes, "no design is set: design_set (or the server's -design) makes explain say which access pattern the request serves")
	}
	switch u.q.Access {
	case insights.Get, insights.Query, insights.Scan:
		if u.table.fromDesign {
			ex.Notes = append(ex.Notes, "table "+u.q.Table+" does not exist yet: judged on the design alone (its keys and indexes), not run, no capacity measured")
			break
		}
		if err := s.measureRead(ctx, op, req, u.q.Filter, ex); err != nil {
			return nil, err
		}
	default:
		if err := s.estimateWrite(ctx, u, ex); err != nil {
			return nil, err
		}
	}
	if u.q.Access == insights.Scan {
		ex.Notes = append(ex.Notes, "a Scan reads every item of the "+map[bool]string{true: "index", false: "table"}[u.q.Index != ""]+" and pays for each, filter or not: a pattern the design serves should use a key or an index")
		if by := keyedByFilter(u.table, req); by != "" {
			ex.Notes = append(ex.Notes, by)
		}
	}
	if x := u.table.index(u.q.Index); x != nil && !x.local {
		ex.Notes = append(ex.Notes, "a GSI is eventually consistent: it may not show a write yet (lag_set shows this on demand)")
	}
	return ex, nil
}

// servedBy describes the table's key or an index, with its keys.
func servedBy(d *tableDesc, index string) string {
	keys := func(ks []keyElem) string {
		pk, sk, _ := key(ks)
		s := "partition key " + pk
		if sk != "" {
			s += ", sort key " + sk
		}
		return s
	}
	if index == "" {
		return "the table's key (" + keys(d.KeySchema) + ")"
	}
	x := d.index(index)
	if x == nil {
		return "index " + index + " (not on the table)"
	}
	kind := "GSI"
	if x.local {
		kind = "LSI"
	}
	return fmt.Sprintf("%s %s (%s; projection %s)", kind, index, keys(x.keys), x.projection)
}

// measureRead runs a read once with ReturnConsumedCapacity INDEXES: its
// capacity and, for a Query or Scan, what its filter dropped.
func (s *Server) measureRead(ctx context.Context, op string, req json.RawMessage, filter bool, ex *explanation) error {
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(req, &m); err != nil {
		return inputErrorf("bad request: %v", err)
	}
	m["ReturnConsumedCapacity"] = json.RawMessage(`"INDEXES"`)
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	ans, err := s.eng.call(ctx, apiDynamoDB, op, body)
	if err != nil {
		return err
	}
	var out struct {
		Count, ScannedCount int
		LastEvaluatedKey    json.RawMessage
		ConsumedCapacity    consumed
	}
	if err := json.Unmarshal(ans, &out); err != nil {
		return err
	}
	ex.Capacity = out.ConsumedCapacity.capacity("measured: the read was run once with ReturnConsumedCapacity INDEXES (it counts in the report)")
	if op == "GetItem" {
		return nil
	}
	if filter {
		f := &filterDrop{Read: out.ScannedCount, Returned: out.Count, Dropped: out.ScannedCount - out.Count}
		if out.ScannedCount > 0 {
			f.Share = math.Round(float64(f.Dropped)/float64(out.ScannedCount)*1000) / 1000
		}
		ex.Filter = f
		if f.Dropped > 0 {
			ex.Notes = append(ex.Notes, fmt.Sprintf("the filter dropped %d of the %d items read: they were read and paid for; a key condition or an index that selects them costs less", f.Dropped, f.Read))
		}
	}
	if out.LastEvaluatedKey != nil {
		ex.Notes = append(ex.Notes, "measured on the first page only (1 MB or the Limit): the whole read takes more pages and costs more")
	}
	return nil
}

// units is a ConsumedCapacity's units of the table or an index.
type units = shapes.Capacity[float64]

// consumed is a ConsumedCapacity of an answer.
type consumed struct {
	shapes.ConsumedCapacity[float64]
}

// capacity turns c, a read's, into the explanation's capacity.
func (c consumed) capacity(how string) capacity {
	read := c.ReadCapacityUnits
	if read == 0 {
		read = c.CapacityUnits
	}
	out := capacity{ReadUnits: read, How: how, PerIndex: map[string]float64{}}
	if c.Table != nil {
		out.PerIndex["table"] = c.Table.CapacityUnits
	}
	for _, xs := range []map[string]units{c.GlobalSecondaryIndexes, c.LocalSecondaryIndexes} {
		for name, u := range xs {
			out.PerIndex["index "+name] = u.CapacityUnits
		}
	}
	if len(out.PerIndex) == 0 {
		out.PerIndex = nil
	}
	return out
}

// estimateWrite estimates a write's capacity from the item's size: one
// write unit per KB on the table, and as much on each GSI whose keys the
// item has (a projection of every attribute: the most it can cost). The
// write is not run.
func (s *Server) estimateWrite(ctx context.Context, u use, ex *explanation) error {
	it := u.item
	how := "estimated from the item's size (the write was not run): 1 write unit per KB, on the table and on each GSI that holds the item, counting the whole item"
	if it == nil && u.table.fromDesign {
		it = storage.Item{}
		ex.Notes = append(ex.Notes, "table "+u.table.TableName+" does not exist yet: judged on the design alone")
	}
	if it == nil {
		var cur struct{ Item json.RawMessage }
		if _, err := s.eng.callJSON(ctx, apiDynamoDB, "GetItem", map[string]any{"TableName": u.table.TableName, "Key": u.key, "ConsistentRead": true}, &cur); err != nil {
			return err
		}
		if cur.Item == nil {
			it = storage.Item{}
			ex.Notes = append(ex.Notes, "no item has this key yet")
		} else {
			var err error
			if it, err = itemOf(cur.Item); err != nil {
				return err
			}
		}
		how = "estimated from the item's current size (the write was not run; an update that grows it costs more): 1 write unit per KB, on the table and on each GSI that holds the item"
	}
	units := math.Max(1, math.Ceil(float64(storage.ItemSize(it))/1024))
	c := capacity{WriteUnits: units, How: how, PerIndex: map[string]float64{"table": units}}
	for _, x := range u.table.GlobalSecondaryIndexes {
		held := true
		for _, a := range u.table.keyNames(x.KeySchema) {
			if _, ok := it[a]; !ok {
				held = false
			}
		}
		if held {
			c.PerIndex["index "+x.IndexName] = units
			c.WriteUnits += units
		}
	}
	ex.Capacity = c
	return nil
}

// keyText renders a key condition as the report does ("pk=ORDER#1 sk
// begins_with 2024-").
func keyText(k insights.KeyCondition) string {
	return insights.KeyText(k)
}

// keyedByFilter names what could serve a Scan whose filter tests an
// attribute for equality (at the top of the filter, or ANDed there) that
// is the partition key of one of the table's indexes, or of the table:
// a Query there reads the matching items only. "" when nothing does, or
// the filter does not parse (the measured Scan has said why then).
func keyedByFilter(d *tableDesc, req json.RawMessage) string {
	var in struct {
		FilterExpression         string
		ExpressionAttributeNames map[string]string
	}
	if json.Unmarshal(req, &in) != nil || in.FilterExpression == "" {
		return ""
	}
	tree, err := expr.ParseCondition("FilterExpression", in.FilterExpression)
	if err != nil {
		return ""
	}
	tested := map[string]bool{}
	equalities(tree, in.ExpressionAttributeNames, tested)
	var found []string
	if pk, _, _ := key(d.KeySchema); tested[pk] {
		found = append(found, "a Query of the table (partition key "+pk+")")
	}
	for _, x := range d.GlobalSecondaryIndexes {
		if pk, _, _ := key(x.KeySchema); tested[pk] {
			found = append(found, "a Query of GSI "+x.IndexName+" (partition key "+pk+")")
		}
	}
	if len(found) == 0 {
		return ""
	}
	return "the filter tests for equality what " + strings.Join(found, " or ") + " takes as its key: it reads the matching items only"
}

// equalities adds to tested each top-level attribute that c compares
// with = to a value, through ANDs and parentheses (an OR or a NOT
// serves no single key).
func equalities(c expr.Expr, names map[string]string, tested map[string]bool) {
	switch x := c.(type) {
	case *expr.ParenExpr:
		equalities(x.X, names, tested)
	case *expr.BinaryExpr:
		switch x.Op {
		case expr.AND:
			equalities(x.X, names, tested)
			equalities(x.Y, names, tested)
		case expr.EQ:
			for _, side := range [][2]expr.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				p, isPath := side[0].(*expr.PathExpr)
				_, isValue := side[1].(*expr.ValueExpr)
				if isPath && isValue && len(p.Elems) == 1 && !p.Elems[0].IsIndex {
					name := p.Elems[0].Name
					if strings.HasPrefix(name, "#") {
						name = names[name]
					}
					tested[name] = true
				}
			}
		}
	}
}
