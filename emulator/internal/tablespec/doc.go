// Package tablespec holds the wire shapes of the control-plane
// operations (CreateTable, UpdateTable, DescribeTable and their kin,
// vector indexes among them), the timestamp they carry, and the checks
// of a request that are a function of its wire form alone: the model
// constraints AWS reports all at once, before anything the catalog
// knows. The service names these shapes as its own (aliases), so its
// operations and the features read them as before. The nested shapes
// other packages share (AttributeDefinition, KeySchemaElement,
// Projection, ProvisionedThroughput, Tag, the vector index's elements)
// are internal/shapes', named here in their two forms: a request's
// (pointers) and a description's (the ...Desc names, values); so are
// CreateTableInput and a TableDescription's members, which the MCP server
// and the conventions check read too, named here as they were.
//
// It also holds a table's definition in the emulator's own types:
// TableDef (a validated CreateTable request, ValidateCreateTable),
// IndexDef (a secondary index: its key attributes, projection and
// throughput, and what an item write asks of it: InIndex, EntrySize,
// SameEntry, CheckItemKey and the key size limits: index_keys.go), VectorIndexDef (a vector index, with CheckVectorIndex and
// the VectorWriteRequestBytes an item write costs it), KeyElem, AttrDef,
// IndexProjection, Throughput and TagPair (a stored tag: a TagDesc);
// Settings (what a table's requests set: billing, capacity, on-demand
// limits, warm floor, SSE, class, TTL, point-in-time recovery, the
// restore source: settings.go) and Identity (its name, TableId, ARN,
// creation time and key schema: identity.go), the values a feature
// reads and edits whole through the service's seam; GSI, a read-only
// view of a GSI (gsi.go). These are plain values with
// no lock and no catalog: the service keeps them in its table snapshots
// and calls their methods directly on the item paths. What needs the
// catalog (UpdateTable's changes to a live definition, DescribeTable)
// stays in the service. A restore's overrides applied to the source's
// indexes (RestoreOverrides.RestoredIndexes, restore.go) and a copied
// table's indexes (CopiedIndexes) are functions of definitions alone,
// here for the backups and PITR features' restores and the service's
// CopyTable. So is what an item collection's size counts of a table
// with local secondary indexes (LSIEntriesSize, SizeEstimateRangeGB:
// collections.go), which the service hands storage and reports, and the
// rules of key values, a function of a key schema alone (CheckKeyValue,
// CheckKeyConditionValues, CheckKeyNotUpdated: key_values.go), which the
// service and PartiQL's statements apply alike.
package tablespec
