package storage

// WithKeySchema returns e read with key schema ks: its key attributes
// are part of the item it decodes to and writes out. An image parsed
// from a record (ParseRecord) has none until it is stored again; one
// kept outside a table (a stream record read back from disk) gets its
// table's this way. ks must not change afterwards.
func (e EncodedItem) WithKeySchema(ks *KeySchema) EncodedItem {
	e.ks = ks
	return e
}
