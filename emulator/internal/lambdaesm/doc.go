// Package lambdaesm is Lambda's event source mappings for DynamoDB
// streams, a feature behind the service core's seam (service.Config.Features): a
// mapping names a table's stream and a function, and a poller per
// mapping hands the stream's records to the function in batches with
// Lambda's semantics (BatchSize, MaximumBatchingWindowInSeconds,
// StartingPosition, FilterCriteria, MaximumRetryAttempts,
// MaximumRecordAgeInSeconds, BisectBatchOnFunctionError,
// ReportBatchItemFailures, ParallelizationFactor, an on-failure
// destination). The function is a Go function or an endpoint of
// Lambda's Invoke API (serverless-offline's lambda port). It reads the
// streams the core keeps through service.Stream (Namespace.Streams,
// outside any request) and sends each record as Lambda's events hold it
// (streamsapi.AppendEventRecord: the Streams API's record, its
// userIdentity in Lambda's keys, and its eventSourceARN).
//
// Files by concern:
//
//	manager.go  the per-service Manager: create, list, update, delete, drain, close
//	mapping.go  a mapping's poller: reading, filtering, batching, lanes, the checkpoint
//	deliver.go  invoking, retries, bisecting, partial failures, the on-failure record
//	filter.go   the event filtering pattern language
//	config.go   the API's shapes, defaults, ranges and checks
//	api.go      Lambda's REST API for the mappings, each call decided by a Guard (IAM)
//	targets.go  what a mapping may reach: loopback endpoints, files in the operator's directory
//	file.go     the mappings file
//	serverless.go  serverless.yml's stream events (go.yaml.in/yaml/v4), variables resolved
//	window.go   tumbling windows: the state, the window's final invocation
//	persist.go  the mappings and their checkpoints across restarts (-dbPath)
//
// Caveats: a stream has one shard, so ParallelizationFactor splits it
// into lanes by partition key; a retry waits 1 s, doubling to 60 s
// (SetRetryBackoff; Lambda documents no interval); a tumbling window's batches go one at a time
// whatever the ParallelizationFactor; an on-failure destination that is an ARN
// (SQS, SNS) is not sent anywhere: its records are kept (Failures).
package lambdaesm
