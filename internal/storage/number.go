package storage

import "github.com/dynamoemu/dynamoemu/internal/number"

// Number is a DynamoDB number in canonical text form (package number says
// what canonical is). A Value's N is one.
type Number = number.Number

// Number errors, each with AWS's message text: package number's, named
// here too because callers that hold Values test for them.
var (
	ErrNumberInvalid   = number.ErrInvalid
	ErrNumberPrecision = number.ErrPrecision
	ErrNumberOverflow  = number.ErrOverflow
	ErrNumberUnderflow = number.ErrUnderflow
)

// ParseNumber validates DynamoDB number text and returns it in canonical form.
func ParseNumber(s string) (Number, error) { return number.Parse(s) }

// MustNumber is ParseNumber for literals in tests and code; it panics on error.
func MustNumber(s string) Number { return number.Must(s) }

// CompareNumbers orders two canonical numbers numerically.
func CompareNumbers(a, b Number) int { return number.Compare(a, b) }
