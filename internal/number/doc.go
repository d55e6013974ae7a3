// Package number is DynamoDB's number: a decimal of at most 38 significant
// digits whose leading digit's power of ten lies in [-130, 125].
//
// A Number is held in canonical plain text (no exponent, no leading or
// trailing zeros, "0" for zero), so equal numbers have equal text. Parse
// reads any text DynamoDB accepts and answers AWS's errors for the rest;
// Add and Sub are exact (decimal.go; github.com/cockroachdb/apd/v3 is the
// tests' reference); Compare orders numbers without parsing them. AppendKey
// encodes a number so that byte order is numeric order (key.go), which
// storage's sort keys and tuple keys are built on, and Size is a number's
// stored size in DynamoDB's item-size rules (size.go).
//
// It imports nothing of ours; internal/storage names Number for its Values.
package number
