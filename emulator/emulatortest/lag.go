package emulatortest

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Eventual consistency on demand: the gates that make a GSI,
// a table's eventually consistent reads or a stream lag behind the
// writes. Each helper returns the gate for the rest of t (SetDelay,
// Hold, Release; Advance the emulator's clock past a delay) and ends the
// lag when t ends. A table or index that does not exist fails t.

// IndexLag returns the gate of GSI index of table in c's namespace.
func IndexLag(t testing.TB, e *emulator.Emulator, c *dynamodb.Client, table, index string) emulator.LagGate {
	t.Helper()
	g, err := e.Lags().Index(AccessKeyOf(t, c), c.Options().Region, table, index)
	return lagGate(t, g, err)
}

// ReadLag returns the gate of table's eventually consistent reads in c's
// namespace.
func ReadLag(t testing.TB, e *emulator.Emulator, c *dynamodb.Client, table string) emulator.LagGate {
	t.Helper()
	g, err := e.Lags().Reads(AccessKeyOf(t, c), c.Options().Region, table)
	return lagGate(t, g, err)
}

// StreamLag returns the gate of table's enabled stream in c's namespace.
func StreamLag(t testing.TB, e *emulator.Emulator, c *dynamodb.Client, table string) emulator.LagGate {
	t.Helper()
	g, err := e.Lags().Stream(AccessKeyOf(t, c), c.Options().Region, table)
	return lagGate(t, g, err)
}

// lagGate fails t on err, and ends g's lag when t ends.
func lagGate(t testing.TB, g emulator.LagGate, err error) emulator.LagGate {
	t.Helper()
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	t.Cleanup(func() { g.SetDelay(0) })
	return g
}
