// Package readparams checks the request parameters Query and Scan share
// (Limit, Select, IndexName, Segment and TotalSegments) with AWS's
// constraint messages, and holds the rules of a Query page at an
// inclusive end of its sort key range (when a page is the last, which
// ExclusiveStartKey is refused). Each is a function of the request and
// the keys alone: the service calls them on its read paths as plain
// functions, knowing nothing of the catalog.
package readparams
