package service

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestBatchGetNamesEchoCut: a BatchGetItem whose map names no table
// echoes the map as JSON; a map of 5,000 keys is echoed to its first
// 64 KB, the cut marked, and the constraint after it whole. A small
// map is echoed whole.
func TestBatchGetNamesEchoCut(t *testing.T) {
	s := newTestService(t, Config{})
	var keys []string
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"key-%05d"}}`, i))
	}
	_, out := doService(t, s, TargetPrefix+"BatchGetItem", testkit.DefaultAuth,
		`{"RequestItems":{"bad!name":{"Keys":[`+strings.Join(keys, ",")+`]}}}`)
	require.Contains(t, out, apierr.EchoElided)
	require.Contains(t, out, `Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"key-00000\"}}`)
	require.Contains(t, out, "at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint")
	var answer map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &answer))
	msg := answer["message"] + answer["Message"]
	require.Less(t, len(msg), apierr.MaxEcho+len(apierr.EchoElided)+1000, "%d bytes", len(msg))

	_, out = doService(t, s, TargetPrefix+"BatchGetItem", testkit.DefaultAuth,
		`{"RequestItems":{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}}`)
	require.NotContains(t, out, apierr.EchoElided)
	require.Contains(t, out, `Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' at 'requestItems'`)
}
