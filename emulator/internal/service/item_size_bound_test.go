package service

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// itemSizeSeeds are PutItem bodies whose items are as large as their
// text allows, value kind by kind.
var itemSizeSeeds = []string{
	`{"TableName":"t","Item":{"a":{"S":"x"}}}`,
	`{"Item":{"a":{"S":"\u00e9\u4e2d\ud83d\ude00\"\\\/\b\f\n\r\t"}}}`,
	`{"Item":{"é中😀":{"S":"é中😀"}}}`,
	`{"Item":{"n":{"N":"-0.00000000000000000000000000000000000012345678901234567890123456789012345678"}}}`,
	`{"Item":{"n":{"N":"1E+125"},"m":{"N":"-1e-130"},"z":{"N":"0"},"o":{"N":"10"}}}`,
	`{"Item":{"ns":{"NS":["1","-1","10","0.1","99999999999999999999999999999999999999"]}}}`,
	`{"Item":{"b":{"B":"AAAA"},"bs":{"BS":["AA==","AAA=","AAAA"]}}}`,
	`{"Item":{"t":{"BOOL":true},"f":{"BOOL":false},"u":{"NULL":true}}}`,
	`{"Item":{"l":{"L":[]},"m":{"M":{}},"ll":{"L":[{"L":[{"M":{"":{"S":""}}}]}]}}}`,
	`{"Item":{"m":{"M":{"a":{"N":"1"},"b":{"BOOL":true},"c":{"L":[{"NULL":true},{"N":"-1"}]}}}}}`,
	`{"Item":{"ss":{"SS":["","a","\u0000"]},"a":{"S":"1"},"a":{"S":"22"}}}`,
}

// itemSizeWithin checks that the item a PutItem body decodes to, if any,
// is no larger (storage.ItemSize) than the body: the premise of
// itemsFitBody (item_size_bound.go).
func itemSizeWithin(t *testing.T, body []byte) {
	var in PutItemInput
	if _, err := wire.DecodeRequestDeferred(body, &in); err != nil || in.Item == nil {
		return
	}
	if size := storage.ItemSize(in.Item.Item()); size > len(body) {
		t.Errorf("item of %d bytes decoded from a body of %d: %s", size, len(body), body)
	}
}

func TestItemSizeBelowJSON(t *testing.T) {
	for _, s := range itemSizeSeeds {
		var in PutItemInput
		if _, err := wire.DecodeRequestDeferred([]byte(s), &in); err != nil || in.Item == nil {
			t.Errorf("seed %s does not decode to an item: %v", s, err)
			continue
		}
		itemSizeWithin(t, []byte(s))
	}
}

func FuzzItemSizeBelowJSON(f *testing.F) {
	for _, s := range itemSizeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { itemSizeWithin(t, body) })
}
