package idempotency

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// Requests shaped as the service's: pointers, slices of structs, the
// wire's item and parameter types.
type (
	txInput struct {
		TransactItems               []txItem
		ReturnItemCollectionMetrics *string
	}
	txItem struct{ Put *txPut }
	txPut  struct {
		TableName *string
		Item      wire.WireItem
		Names     wire.ExpressionNames
		Values    wire.ExpressionValues
	}
	stmtInput struct{ TransactStatements []stmt }
	stmt      struct {
		Statement  *string
		Parameters []wire.AttributeValue
	}
)

func TestFingerprint(t *testing.T) {
	s := func(v string) *string { return &v }
	item := func(kv ...string) wire.WireItem {
		w := wire.WireItem{}
		for i := 0; i < len(kv); i += 2 {
			w[kv[i]] = storage.S(kv[i+1])
		}
		return w
	}
	put := func(it wire.WireItem) txInput {
		return txInput{TransactItems: []txItem{{Put: &txPut{TableName: s("t"), Item: it}}}}
	}
	tests := []struct {
		name string
		a, b any
	}{
		{"same", put(item("a", "1", "b", "2")), put(item("b", "2", "a", "1"))},
		{"other value", put(item("a", "1")), put(item("a", "2"))},
		{"other name", put(item("a", "1")), put(item("b", "1"))},
		{"value moved between names", put(item("a", "12", "b", "")), put(item("a", "1", "b", "2"))},
		{"S and N", put(wire.WireItem{"a": storage.S("1")}), put(wire.WireItem{"a": storage.N("1")})},
		{"nested", put(wire.WireItem{"m": storage.M(map[string]storage.Value{"x": storage.L([]storage.Value{storage.Bool(true)})})}),
			put(wire.WireItem{"m": storage.M(map[string]storage.Value{"x": storage.L([]storage.Value{storage.Bool(false)})})})},
		{"set order", put(wire.WireItem{"s": storage.SS([]string{"a", "b"})}), put(wire.WireItem{"s": storage.SS([]string{"b", "a"})})},
		{"nil and empty map", put(nil), put(wire.WireItem{})},
		{"placeholders", txInput{TransactItems: []txItem{{Put: &txPut{Names: wire.ExpressionNames{"#a": "a"}, Values: wire.ExpressionValues{":v": storage.N("1")}}}}},
			txInput{TransactItems: []txItem{{Put: &txPut{Names: wire.ExpressionNames{"#a": "b"}, Values: wire.ExpressionValues{":v": storage.N("1")}}}}}},
		{"absent and empty string", txInput{ReturnItemCollectionMetrics: nil}, txInput{ReturnItemCollectionMetrics: s("")}},
		{"two operations", txInput{}, stmtInput{}},
		{"statement parameters", stmtInput{TransactStatements: []stmt{{Statement: s("x"), Parameters: []wire.AttributeValue{{Value: storage.N("1")}}}}},
			stmtInput{TransactStatements: []stmt{{Statement: s("x"), Parameters: []wire.AttributeValue{{Value: storage.N("2")}}}}}},
	}
	for _, tt := range tests {
		same := Fingerprint(tt.a) == Fingerprint(tt.b)
		require.Equal(t, reflect.DeepEqual(tt.a, tt.b), same, "%s: same fingerprint (DeepEqual)", tt.name)
	}
}

// BenchmarkFingerprint: what a ClientRequestToken costs a transaction
// now that the request is hashed instead of kept.
func BenchmarkFingerprint(b *testing.B) {
	for _, size := range []int{100, 100 << 10, 1 << 20} {
		var body strings.Builder
		body.WriteString(`{"TransactItems":[`)
		for i := range 2 {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `{"Put":{"TableName":"bench","Item":{"pk":{"S":"k%d"},"n":{"N":"%d"},"blob":{"S":"%s"}}}}`, i, i, strings.Repeat("x", size/2))
		}
		body.WriteString(`]}`)
		var in txInput
		require.NoError(b, wire.DecodeRequest([]byte(body.String()), &in))
		b.Run(fmt.Sprint("bytes=", size), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(body.Len()))
			for b.Loop() {
				Fingerprint(in)
			}
		})
	}
}

// TestFingerprintSaved: fingerprints are saved with their tokens
// (persist.go), so a build must hash a request as the builds before it
// did. The strings' lengths cross the buffer's 512-byte and 4,096-byte
// marks at many places; the digest of all their fingerprints was taken
// from the build that handed long strings to the hash without the
// buffer.
func TestFingerprintSaved(t *testing.T) {
	all := sha256.New()
	for _, pad := range []int{0, 1, 7, 100, 3000, 4090} {
		for _, n := range []int{0, 1, 511, 512, 513, 600, 4095, 4096, 4097, 4608, 9000, 100_000} {
			in := stmtInput{TransactStatements: []stmt{{Statement: new(strings.Repeat("p", pad)),
				Parameters: []wire.AttributeValue{{Value: storage.S(strings.Repeat("x", n))}, {Value: storage.N("1")}}}}}
			fp := Fingerprint(in)
			all.Write(fp[:])
		}
	}
	require.Equal(t, "d2b2e301db44cebddff22b30e9dc70c33479f558c48c2ebd2ad0ac3f6e1e36f2", hex.EncodeToString(all.Sum(nil)))
}
