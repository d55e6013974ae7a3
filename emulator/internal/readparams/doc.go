// Package readparams checks the request parameters Query and Scan share
// (Limit, Select, IndexName, Segment and TotalSegments) with AWS's
// constraint messages, and holds the rules of a Query page at an
// inclusive end of its sort key range (when a page is the last, which
// ExclusiveStartKey is refused), the shape of a Query's ExclusiveStartKey
// and its refusal on a table without a sort key (start_key.go), and an unknown ComparisonOperator in the
// legacy condition maps (KeyConditions, QueryFilter, ScanFilter,
// Expected), and the Return... parameters every data-plane operation
// shares (ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure:
// return_params.go). Each is a function of the request and the keys
// alone: the service and the features of the data plane (PartiQL,
// SearchVectors) call them as plain functions, knowing nothing of the
// catalog.
package readparams
