// Package tablerec is the on-disk form of what the service keeps of a
// table: its definition as one versioned JSON metadata record (Table,
// with the features' slots as members named by their features), and its
// stream's identity, state and records in a persistence snapshot
// (StreamPiece and the pieces around it). It encodes and decodes, and
// converts tablespec's definition types to their records and back
// (defs.go); what a record means (the streams rebuilt from it, the
// table it makes) is the service's. The format is fixed by the data directories
// already written: a change here needs a new version and a reader of
// the old one.
package tablerec
