package service

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// valueLayers: the layer in which each operation checks attribute values,
// which decides the wording of a malformed number or a duplicate set
// member (apierr.Layer; AWS's answers captured in four regions,
// paritysuite/dynamodb-conformance tests/tier3/error-messages/
// valueLayers.test.ts). Operations not listed answer in the older layer
// (BatchWriteItem, TransactWriteItems and TransactGetItems in us-east-1,
// Scan, and those AWS's records do not cover).
var valueLayers = sync.OnceValue(func() map[string]apierr.Layer {
	return map[string]apierr.Layer{
		"PutItem":      apierr.LayerEnveloped,
		"UpdateItem":   apierr.LayerEnveloped,
		"DeleteItem":   apierr.LayerEnveloped,
		"GetItem":      apierr.LayerCurrent,
		"BatchGetItem": apierr.LayerCurrent,
		"Query":        apierr.LayerCurrent,
	}
})

// valueLayer words a decoding error of operation op for op's layer.
func valueLayer(op string, err error) error {
	return apierr.Relayer(err, valueLayers()[op])
}
