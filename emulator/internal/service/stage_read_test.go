package service

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// viewingStage is a ReadViewer that watches every table and records
// the reads put to it: operation and index.
type viewingStage struct {
	mu    sync.Mutex
	views []string
}

func (s *viewingStage) Watches(Table) bool     { return true }
func (s *viewingStage) Begin(*TableUse) error  { return nil }
func (s *viewingStage) End(*TableUse, Outcome) {}
func (s *viewingStage) ViewRead(u *TableUse)   { s.add(u.Op() + " " + u.Index()) }
func (s *viewingStage) add(v string)           { s.mu.Lock(); s.views = append(s.views, v); s.mu.Unlock() }
func (s *viewingStage) take() (out []string) {
	s.mu.Lock()
	out, s.views = s.views, nil
	s.mu.Unlock()
	return out
}

// TestReadViewer: the seam puts each eventually consistent read of a
// table or an index to a ReadViewer once, before storage is read, and
// no strongly consistent read, transaction or write.
func TestReadViewer(t *testing.T) {
	vs := &viewingStage{}
	p := newPipelineEnv(t, Config{Features: wiredFeatures(), Stages: []Stage{vs}})
	tests := []struct {
		op, body string
		want     []string
	}{
		{"GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`, []string{"GetItem "}},
		{"GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}},"ConsistentRead":true}`, nil},
		{"Query", `{"TableName":"pipe","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`, []string{"Query "}},
		{"Query", `{"TableName":"lsi","IndexName":"byl","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`, []string{"Query byl"}},
		{"Query", `{"TableName":"lsi","IndexName":"byl","ConsistentRead":true,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`, nil},
		{"Scan", `{"TableName":"pipe"}`, []string{"Scan "}},
		{"Scan", `{"TableName":"pipe","ConsistentRead":true}`, nil},
		{"BatchGetItem", `{"RequestItems":{"pipe":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}]}}}`, []string{"BatchGetItem ", "BatchGetItem "}},
		{"BatchGetItem", `{"RequestItems":{"pipe":{"Keys":[{"pk":{"S":"a"}}],"ConsistentRead":true}}}`, nil},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM \"pipe\" WHERE pk = 'a'"}`, []string{"ExecuteStatement "}},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM \"pipe\" WHERE pk = 'a'","ConsistentRead":true}`, nil},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"pipe","Key":{"pk":{"S":"a"}}}}]}`, nil},
		{"PutItem", `{"TableName":"pipe","Item":{"pk":{"S":"c"}}}`, nil},
		{"UpdateItem", `{"TableName":"pipe","Key":{"pk":{"S":"c"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"y"}}}`, nil},
	}
	vs.take()
	for _, tc := range tests {
		status, out := p.do(tc.op, tc.body)
		require.Equal(t, http.StatusOK, status, "%s %s: %s", tc.op, tc.body, out)
		require.Equal(t, tc.want, vs.take(), "%s %s", tc.op, tc.body)
	}
}
