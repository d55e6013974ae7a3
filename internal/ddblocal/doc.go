// Package ddblocal reads the database files of AWS's DynamoDB Local, so
// that a DynamoDB Local user's data can be brought into dynamoemu
// (cmd/dynamoemu-import-ddblocal). It only reads: a file is opened
// read-only and never changed.
//
// # Basics
//
// DynamoDB Local started with -dbPath DIR keeps one SQLite file per
// database in DIR: <access key>_<region>.db, or shared-local-instance.db
// with -sharedDb (ParseFileName, Namespace). Open checks that a file is
// one of them (File), Tables lists its tables with what their CreateTable
// needs (Table, Table.CreateTableInput) and Items reads a table's items as
// DynamoDB JSON. In such a file (names.go, file.go, tables.go):
//
//   - the table dm has a row per table: its name, billing mode, provisioned
//     throughput, on-demand maximums, deletion protection, and TableInfo, a
//     JSON document with the attribute definitions, the LSIs and GSIs as
//     CreateTable gave them, the TTL attribute, and the key schema (in its
//     SQLiteIndex, under the empty name);
//   - the table sm has a row per stream (ENABLED or DISABLED) with its
//     StreamInfo (the view type);
//   - each DynamoDB table is an SQLite table of the same name whose
//     column ObjectJSON holds each item as DynamoDB JSON (binary values in
//     base64, numbers normalized); its other columns are DynamoDB Local's
//     sort keys and index keys, which dynamoemu rebuilds from the items.
//
// # Caveats
//
// DynamoDB Local keeps no tags, table class or encryption settings, so none
// are read. A stream's records (the table us) are not read: an imported
// table's stream starts empty, with a new ARN. A file whose header counts
// more pages than it holds is refused as truncated before SQLite reads it,
// a file that is not SQLite, or is SQLite without DynamoDB Local's tables,
// is refused by Open, and Open runs SQLite's quick_check so that a damaged
// file is refused before anything is imported from it.
package ddblocal
