package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/storage"
)

// BatchGetItem's answer without reflection or item maps (issue 25): each
// item is written straight from its record, or from the record its
// projection made (projectEncoded), as GetItem's is. The request's Keys
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
		b = append(wire.AppendMember(b, false, "ConsumedCapacity"), '[')
		for i, cc := range o.ConsumedCapacity {
			if i > 0 {
				b = append(b, ',')
			}
			b = cc.appendJSON(b)
		}
		b = append(b, ']')
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
