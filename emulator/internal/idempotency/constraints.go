package idempotency

import "github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

// MaxTokenLen is the longest ClientRequestToken (the API's model: 1 to
// 36 characters).
const MaxTokenLen = 36

// Constraints adds the length constraints of a ClientRequestToken tok
// (nil: none given) to cs, as TransactWriteItems and ExecuteTransaction
// check it.
func Constraints(cs *apierr.Constraints, tok *string) {
	if tok == nil {
		return
	}
	if len(*tok) < 1 {
		cs.Add(apierr.Quote(*tok), "clientRequestToken", apierr.LenGE(1))
	}
	if len(*tok) > MaxTokenLen {
		cs.Add(apierr.Quote(*tok), "clientRequestToken", apierr.LenLE(MaxTokenLen))
	}
}
