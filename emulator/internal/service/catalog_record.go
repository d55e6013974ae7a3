package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table's definition record: what a namespace's storage.DB holds,
// and so what its commit hook records and DB.Apply rebuilds, is the
// catalog package's doc (emulator/internal/catalog/doc.go); the derived
// state is rebuilt by Namespace.Apply's callback (catalog_apply.go).

// metaKeyTable is the storage metadata key of a table's definition.
const metaKeyTable = catalog.MetaKey

// fixed are t's fields its definition record fixes.
func (t *table) fixed() catalog.Fixed {
	return catalog.Fixed{Name: t.name, ID: t.id, ARN: t.arn, Created: t.created, KeySchema: t.keySchema}
}

// encodeTableMeta returns the metadata record of t with definition m.
func encodeTableMeta(t *table, m *tableMeta) []byte { return catalog.Encode(t.fixed(), m) }

// decodeTableRecord parses a table's metadata record: the table's fixed
// fields and its definition (status ACTIVE). The key schema's kinds come
// from ks, the storage table's. Its features' slots are those of sm's
// features.
func (sm *seams) decodeTableRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	f, m, err := catalog.Decode(b, sm.features, sm.extMembers)
	return tableOf(f, ks), m, err
}

// decodeSharedRecord is decodeTableRecord for a table restored from a
// record another table may have published already (a branch's): the
// definition is decoded once and published by each, and the fixed
// fields' strings and key schema are shared (catalog.Defs).
func (s *Service) decodeSharedRecord(b []byte, ks storage.KeySchema) (*table, *tableMeta, error) {
	f, m, err := s.defs.Decode(b, ks, s.seams.features, s.seams.extMembers)
	return tableOf(f, ks), m, err
}

// tableOf returns a table of fixed fields f and key schema ks.
func tableOf(f catalog.Fixed, ks storage.KeySchema) *table {
	return &table{name: f.Name, id: f.ID, arn: f.ARN, created: f.Created, schema: ks, keySchema: f.KeySchema}
}
