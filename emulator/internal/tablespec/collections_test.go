package tablespec

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestSizeEstimateRangeGB(t *testing.T) {
	tests := []struct {
		bytes int64
		want  []float64
	}{
		{0, []float64{0, 1}},
		{7, []float64{0, 1}},
		{1<<30 - 1, []float64{0, 1}},
		{1 << 30, []float64{1, 2}},
		{3<<30 + 5, []float64{3, 4}},
		{10 << 30, []float64{10, 11}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, SizeEstimateRangeGB(tt.bytes), "bytes %d", tt.bytes)
	}
}

func TestLSIEntriesSize(t *testing.T) {
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}
	lsi := func(sortKey, typ string, nonKey ...string) *IndexDef {
		return &IndexDef{
			Name:       "i_" + sortKey,
			Schema:     storage.KeySchema{Partition: ks.Partition, Sort: storage.KeyAttr{Name: sortKey, Kind: storage.KindS}},
			Projection: IndexProjection{Type: typ, NonKey: nonKey},
		}
	}
	// pk "a": 2+1; sk 1: 2+2; l1 "xy": 2+2; l2 "z": 2+1; big "0123456789": 3+10; other: 5+1.
	item := storage.Item{"pk": storage.S("a"), "sk": storage.N("1"), "l1": storage.S("xy"), "l2": storage.S("z"),
		"big": storage.S("0123456789"), "other": storage.S("o")}
	itemSize := int64(storage.ItemSize(item)) // 3+4+4+3+13+6 = 33
	require.Equal(t, int64(33), itemSize, "the cases below assume it")
	tests := []struct {
		name string
		lsis []*IndexDef
		item storage.Item
		want int64
	}{
		{"ALL", []*IndexDef{lsi("l1", "ALL")}, item, 33 + 100},
		{"KEYS_ONLY", []*IndexDef{lsi("l1", "KEYS_ONLY")}, item, 3 + 4 + 4 + 100},
		{"INCLUDE", []*IndexDef{lsi("l1", "INCLUDE", "big", "missing")}, item, 3 + 4 + 4 + 13 + 100},
		{"INCLUDE naming key attributes counts them once", []*IndexDef{lsi("l1", "INCLUDE", "pk", "l1", "sk")}, item, 3 + 4 + 4 + 100},
		{"sparse: no index sort key, no entry", []*IndexDef{lsi("nope", "ALL")}, item, 0},
		{"two indexes", []*IndexDef{lsi("l1", "ALL"), lsi("l2", "KEYS_ONLY")}, item, 33 + 100 + 3 + 4 + 3 + 100},
		{"one of two present", []*IndexDef{lsi("l1", "KEYS_ONLY"), lsi("nope", "ALL")}, item, 3 + 4 + 4 + 100},
		{"index on the table sort key", []*IndexDef{{Schema: ks, Projection: IndexProjection{Type: "KEYS_ONLY"}}}, item, 3 + 4 + 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, LSIEntriesSize(ks, tt.lsis)(tt.item))
		})
	}
}
