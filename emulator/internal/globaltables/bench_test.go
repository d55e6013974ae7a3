package globaltables

import (
	"fmt"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// BenchmarkReplicatedPut: a PutItem in a 2019.11.21 global table of two
// regions and its replication (drained every 100 writes), on a clock that
// moves, with stamps pruned as they are by default. It reports the
// stamps kept at the end (they stay bounded however many keys are
// written).
func BenchmarkReplicatedPut(b *testing.B) {
	p := newGTPairB(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p.clock.Advance(time.Microsecond)
		p.auth = p.east
		p.must("PutItem", fmt.Sprintf(`{"TableName":"gtab","Item":{"pk":{"S":"k%d"},"v":{"N":"%d"}}}`, i, i))
		if i%100 == 99 {
			p.svc.DrainReplication()
		}
	}
	p.svc.DrainReplication()
	b.ReportMetric(float64(p.svc.StampCount()), "stamps")
}

// newGTPairB is newGTPair for a benchmark.
func newGTPairB(b *testing.B) *gtPair {
	b.Helper()
	e := newClockEnv(b, Config{})
	p := &gtPair{clockEnv: e, east: testkit.Auth("gt", "us-east-1"), west: testkit.Auth("gt", "eu-west-1")}
	p.auth = p.east
	p.must("CreateTable", `{"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	p.must("UpdateTable", `{"TableName":"gtab","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]}`)
	return p
}
