// Package streamsapi is the DynamoDB Streams API, a table-level feature
// behind the service core's seam (service.Config.Features): ListStreams,
// DescribeStream, GetShardIterator and GetRecords, served on the same
// port as DynamoDB under their own X-Amz-Target prefix (TargetPrefix,
// service.APIOp). The streams are the core's: each is the storage
// Observer of its table's data on the one write path, kept across
// restarts and delayed by the lag gates. This package reads them
// through service.Stream and writes GetRecords' answer straight from
// the records the stream keeps (service.JSONAppender).
package streamsapi
