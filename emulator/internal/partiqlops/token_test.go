package partiqlops

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestNextTokenBound: a token decodes with its own statement and
// parameters into its key; with another statement, other parameters or
// another index it is refused as not this request's; an edited one, or
// one that is no token, as invalid.
func TestNextTokenBound(t *testing.T) {
	key := storage.Item{"pk": storage.S("p"), "sk": storage.N("7")}
	own := lower.Binding{Src: `SELECT * FROM "t" WHERE a = ?`, Params: []storage.Value{storage.S("x")}}
	tok := encodeNextToken(key, fingerprint(own))

	got, err := decodeNextToken(tok, fingerprint(own))
	require.NoError(t, err)
	require.Equal(t, key, got)
	// The same request again (a copy of its values) is the same request.
	_, err = decodeNextToken(tok, fingerprint(lower.Binding{Src: own.Src, Params: []storage.Value{storage.S("x")}}))
	require.NoError(t, err)

	for _, other := range []lower.Binding{
		{Src: `SELECT * FROM "t" WHERE a = ?`, Params: []storage.Value{storage.S("y")}},
		{Src: `SELECT * FROM "t" WHERE a = ?`, Params: []storage.Value{storage.N("1")}},
		{Src: `SELECT * FROM "t" WHERE a = ?`},
		{Src: `SELECT * FROM "t" WHERE a = ? `, Params: own.Params},
		{Src: `SELECT * FROM "t"."i" WHERE a = ?`, Params: own.Params},
		{Src: `SELECT * FROM "u" WHERE a = ?`, Params: own.Params},
		// The parameters' bytes moved into the text.
		{Src: `SELECT * FROM "t" WHERE a = ?{"S":"x"}`},
	} {
		_, err := decodeNextToken(tok, fingerprint(other))
		requireMessage(t, err, apierr.MsgNextTokenMismatch, other.Src)
	}

	raw, err := base64.StdEncoding.DecodeString(tok)
	require.NoError(t, err)
	edited := func(f func([]byte) []byte) string {
		return base64.StdEncoding.EncodeToString(f(append([]byte(nil), raw...)))
	}
	for name, bad := range map[string]string{
		"not base64":      "!",
		"empty":           "",
		"too short":       base64.StdEncoding.EncodeToString(raw[:tokenTailLen-1]),
		"a key alone":     base64.StdEncoding.EncodeToString([]byte(`{"pk":{"S":"p"},"sk":{"N":"7"}}`)),
		"key edited":      edited(func(b []byte) []byte { b[8] = 'q'; return b }),
		"fingerprint off": edited(func(b []byte) []byte { b[len(b)-tokenTailLen] ^= 1; return b }),
		"check off":       edited(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }),
	} {
		_, err := decodeNextToken(bad, fingerprint(own))
		requireMessage(t, err, apierr.MsgPartiQLInvalidNextToken, name)
	}
}

func requireMessage(t *testing.T, err error, msg, what string) {
	t.Helper()
	var ae *apierr.Error
	require.True(t, errors.As(err, &ae), "%s: got %v, want a ValidationException", what, err)
	require.Equal(t, apierr.ErrValidation, ae.Class, what)
	require.Equal(t, msg, ae.Msg, what)
}

// FuzzDecodeNextToken: any token is decoded or refused with one of the
// two messages, never a panic; a decoded one holds a key item.
func FuzzDecodeNextToken(f *testing.F) {
	own := lower.Binding{Src: `SELECT * FROM "t"`}
	f.Add(encodeNextToken(storage.Item{"pk": storage.S("p")}, fingerprint(own)))
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"pk":{"S":"p"}}`)))
	f.Add("!")
	f.Fuzz(func(t *testing.T, tok string) {
		it, err := decodeNextToken(tok, fingerprint(own))
		if err != nil {
			var ae *apierr.Error
			require.True(t, errors.As(err, &ae))
			require.Contains(t, []string{apierr.MsgPartiQLInvalidNextToken, apierr.MsgNextTokenMismatch}, ae.Msg)
			return
		}
		require.NotNil(t, it)
	})
}
