// Command dynamoemu-import-ddblocal brings the data of AWS's DynamoDB
// Local into a dynamoemu data directory:
//
//	dynamoemu-import-ddblocal -from DIR -dbPath DIR
//
// reads DynamoDB Local's -dbPath files in -from (shared-local-instance.db,
// <access key>_<region>.db; or one such file) and makes their tables in
// -dbPath, each in the database it was in (the same access key and region,
// or the shared one): key schema, billing mode and throughput, on-demand
// maximums, LSIs, GSIs, stream (view type), TimeToLive, deletion
// protection and every item. It then counts each table's items in both
// and fails if they differ. The two directories may be one: dynamoemu
// keeps its databases in subdirectories and never reads the .db files.
// The SQLite files are opened read-only and never changed (package
// internal/ddblocal reads them); stop DynamoDB Local first, or at least
// write nothing to it while this runs.
//
// Nothing is written unless every file reads whole (a truncated or damaged
// file, or one that is not DynamoDB Local's, is refused with the reason)
// and no table it would make exists already in -dbPath. What DynamoDB
// Local does not keep (tags, table class, encryption settings) or
// dynamoemu makes anew (creation times, stream ARNs, stream records) is
// not carried over; the command says so once.
//
// It is a command of its own, not part of the server, because it links a
// pure-Go SQLite (modernc.org/sqlite), which would add megabytes to the
// server's binary and image for a one-off migration. The server points
// at it: started with -dbPath on a directory holding DynamoDB Local's
// files and no data of its own, it logs the line to run (cmd/dynamoemu's
// ddblocal_files.go).
//
// Files: main.go (flags, exit status), import.go (the import through an
// in-process emulator on -dbPath).
package main
