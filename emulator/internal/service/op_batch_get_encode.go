package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BatchGetItem's answer without reflection or item maps: each
// item is written straight from its record, or from the record its
// projection made (as GetItem's is; a table's projected records are made
// into one buffer, batchProjector). The request's Keys
// and ExpressionAttributeNames maps go back to the decoder once the answer
// is encoded.

// batchGetResponse is one table's entry of Responses: its items as stored.
type batchGetResponse struct {
	name  string
	items []storage.EncodedItem
}

// appendJSON encodes the answer as encoding/json encoded the structs it
// replaces: Responses with every table asked for (in name order, as
// encoding/json orders map keys; an empty list when none was found),
// UnprocessedKeys always, ConsumedCapacity when not empty.
func (o *BatchGetItemOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"Responses":{`...)
	for i, r := range o.Responses {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(wire.AppendString(b, r.name), ':', '[')
		for j, e := range r.items {
			if j > 0 {
				b = append(b, ',')
			}
			b = wire.AppendStoredItem(b, e)
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	b = wire.AppendMarshal(wire.AppendMember(b, false, "UnprocessedKeys"), o.UnprocessedKeys)
	if len(o.ConsumedCapacity) > 0 {
		b = wire.AppendConsumedList(wire.AppendMember(b, false, "ConsumedCapacity"), o.ConsumedCapacity)
	}
	return append(b, '}')
}

// recycle gives back each table's Keys and ExpressionAttributeNames maps:
// batchGetItem builds a storage.Key from every key, the compiled
// projection copies the names it uses, the answer's items are stored
// records, and UnprocessedKeys, which holds some of these maps, is
// encoded before register's adapter calls recycle.
func (in *BatchGetItemInput) recycle() {
	for _, req := range in.RequestItems {
		if req == nil {
			continue
		}
		for i, k := range req.Keys {
			wire.RecycleItem(k)
			req.Keys[i] = nil
		}
		wire.RecycleNames(req.ExpressionAttributeNames)
		req.ExpressionAttributeNames = nil
	}
}

// batchProjector projects one table's items of a BatchGetItem: one
// Projector for all of them, their records appended to one buffer that
// becomes one string, instead of a Projector, a buffer and a string per
// item.
type batchProjector struct {
	pj   *expr.Projector // nil: the table's items are whole
	buf  []byte          // the projected records, back to back
	ends []int           // where each record ends in buf
}

// add appends the projection of the stored item e.
func (p *batchProjector) add(e storage.EncodedItem) {
	p.buf = p.pj.Append(p.buf, e)
	p.ends = append(p.ends, len(p.buf))
}

// items returns the projected records added, in order (nil: none).
func (p *batchProjector) items() []storage.EncodedItem {
	if len(p.ends) == 0 {
		return nil
	}
	s := string(p.buf)
	out := make([]storage.EncodedItem, len(p.ends))
	start := 0
	for i, end := range p.ends {
		out[i] = storage.EncodedItemOf(s[start:end])
		start = end
	}
	return out
}
