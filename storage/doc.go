// Package storage knows DynamoDB's data model and nothing about JSON, HTTP or
// expression text.
//
// # Basics
//
// Value is a sum type over DynamoDB's ten attribute kinds (S, N, B, BOOL,
// NULL, L, M, SS, NS, BS); an Item maps attribute names to Values. Number is a
// decimal with 38 significant digits and DynamoDB's range, always held in
// canonical plain text so equal numbers have equal text; arithmetic is exact
// (github.com/cockroachdb/apd/v3) and fails with AWS's errors when a result
// does not fit.
//
// # Caveats
//
// Values are immutable after construction: slices and maps passed to the
// constructors or returned by the accessors are shared, never copied.
package storage
