package partiqlops

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A SELECT's NextToken is bound to the request that read its page: the
// statement's text (which names the table and the index) and the values
// of its parameters. It is the base64 of
//
//	the last evaluated key's DynamoDB JSON | fingerprint (16) | check (8)
//
// where the fingerprint is a SHA-256 of the statement and its
// parameters, and the check a SHA-256 of the key and the fingerprint. A
// token that is not one of these (no base64, too short, a check that
// does not hold, a key that does not decode) is invalid; one whose
// fingerprint is not this request's was read by another statement or
// with other parameters, and AWS refuses it in its own words (captured
// against AWS, eu-west-2, 2026, and published by nubo-db/dynoxide:
// CHANGELOG "NextToken does not match request", and
// tests/partiql_index_qualifier.rs, a token read on one index replayed
// on another, or on the table). The check is not a secret: it makes a
// token opaque enough that an edit of it, or another request's, is
// noticed, and a token stays good across a restart.

// tokenFingerprint is the fingerprint of a statement and its parameters.
type tokenFingerprint [16]byte

// Sizes of a token's tail.
const (
	tokenCheckLen = 8
	tokenTailLen  = len(tokenFingerprint{}) + tokenCheckLen
)

// fingerprint is b's: its text, then each parameter's DynamoDB JSON,
// each after its length.
func fingerprint(b lower.Binding) tokenFingerprint {
	buf := append([]byte("PartiQL NextToken\x00"), strconv.Itoa(len(b.Src))...)
	buf = append(append(buf, ':'), b.Src...)
	for _, p := range b.Params {
		n := len(buf)
		buf = wire.AppendValue(buf, p)
		buf = append(strconv.AppendInt(buf, int64(len(buf)-n), 10), ';')
	}
	sum := sha256.Sum256(buf)
	return tokenFingerprint(sum[:16])
}

// tokenCheck is the check of a token's key and fingerprint.
func tokenCheck(key []byte, fp tokenFingerprint) [tokenCheckLen]byte {
	buf := append(append([]byte("PartiQL NextToken check\x00"), fp[:]...), key...)
	sum := sha256.Sum256(buf)
	return [tokenCheckLen]byte(sum[:tokenCheckLen])
}

// encodeNextToken is the NextToken of a page that ended at key, read by
// the statement of fingerprint fp.
func encodeNextToken(key storage.Item, fp tokenFingerprint) string {
	raw := wire.AppendItem(nil, key)
	c := tokenCheck(raw, fp)
	raw = append(append(raw, fp[:]...), c[:]...)
	return base64.StdEncoding.EncodeToString(raw)
}

// decodeNextToken decodes a NextToken given with the statement of
// fingerprint fp into the key item it holds.
func decodeNextToken(tok string, fp tokenFingerprint) (storage.Item, error) {
	raw, err := base64.StdEncoding.DecodeString(tok)
	if err != nil || len(raw) < tokenTailLen {
		return nil, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
	}
	key, tail := raw[:len(raw)-tokenTailLen], raw[len(raw)-tokenTailLen:]
	var got tokenFingerprint
	copy(got[:], tail)
	if c := tokenCheck(key, got); !bytes.Equal(c[:], tail[len(got):]) {
		return nil, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
	}
	if got != fp {
		return nil, apierr.Validation(apierr.MsgNextTokenMismatch)
	}
	it, err := wire.DecodeItem(key)
	if err != nil {
		return nil, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
	}
	return it, nil
}
