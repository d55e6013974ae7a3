// Package ion reads and writes DynamoDB items as Amazon Ion text, the
// second format of DynamoDB's exports and imports (the first, DynamoDB
// JSON, is emulator/internal/wire's). An export writes a line per item
// (VersionMarker, AppendItem, AppendStoredItem straight from a stored
// record); an import reads a file's items back (ReadItems), each as
// DynamoDB JSON for wire.DecodeItem to check as any item.
//
// # Files
//
//   - write.go: AWS's mapping of DynamoDB's types to Ion, and the
//     appenders.
//   - read.go: the reader, of the text subset of Ion that exports and
//     imports use (Ion binary is not read).
package ion
