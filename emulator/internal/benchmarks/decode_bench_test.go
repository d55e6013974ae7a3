package benchmarks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// batchWriteOp is a BatchWriteItem of 25 puts to "bench", each item
// padded with pad bytes.
func batchWriteOp(name string, pad int) op {
	key := func(i int) (string, string) { return fmt.Sprintf("user#%07d", 2_000_000+i), "3" }
	return op{
		name:   name,
		target: "BatchWriteItem",
		body: func(testing.TB) string {
			puts := make([]string, 25)
			for i := range puts {
				pk, sk := key(i)
				puts[i] = fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":%q},"sk":{"N":%q},"pad":{"S":%q}}}}`, pk, sk, strings.Repeat("x", pad))
			}
			return `{"RequestItems":{"bench":[` + strings.Join(puts, ",") + `]}}`
		},
		sdk: func(testing.TB) func(context.Context, *dynamodb.Client) error {
			writes := make([]types.WriteRequest, 25)
			for i := range writes {
				pk, sk := key(i)
				writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"pk":  &types.AttributeValueMemberS{Value: pk},
					"sk":  &types.AttributeValueMemberN{Value: sk},
					"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", pad)},
				}}}
			}
			in := &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bench": writes}}
			return func(ctx context.Context, db *dynamodb.Client) error {
				out, err := db.BatchWriteItem(ctx, in)
				if err == nil && len(out.UnprocessedItems) > 0 {
					err = fmt.Errorf("BatchWriteItem left %d tables unprocessed", len(out.UnprocessedItems))
				}
				return err
			}
		},
	}
}

// BenchmarkDecodePair is the pair of the one streaming request decoder
// (emulator/internal/wire's doc.go): the requests whose cost it must
// hold against the tree before the list cuts (abbf610), run the same in
// both (benchstat over -count runs of each): BatchWriteItem of 25 × 40 KB
// (a 1 MB body) and of 25 × 400 B, TransactWrite2, QueryPartition10 and
// GetItem, through the handler (cpu-ns/op: the process's CPU) and, for
// the batches, over HTTP to a child server (server-user-ns/op).
func BenchmarkDecodePair(b *testing.B) {
	batches := []op{batchWriteOp("BatchWriteItem25x40KB", 40_000), batchWriteOp("BatchWriteItem25x400B", 400)}
	pair := append([]op(nil), batches...)
	for _, o := range ops {
		switch o.name {
		case "TransactWrite2", "QueryPartition10", "GetItem":
			pair = append(pair, o)
		}
	}
	for _, o := range pair {
		b.Run(o.name+"/handler", func(b *testing.B) { benchHandler(b, o) })
	}
	for _, o := range batches {
		b.Run(o.name+"/http-child", func(b *testing.B) { benchHTTPChild(b, o) })
	}
}
