package emulator

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
)

// The admin endpoints of fault injection and the access-pattern report
// (behind the admin guard, as the others: httpedge/adminguard.go):
//
//	GET    /dynamoemu/faults          the rules: {"seed":..,"rules":[...]} (faults.Config's JSON)
//	PUT    /dynamoemu/faults          replace the rules (same JSON; an error says line and column)
//	DELETE /dynamoemu/faults          remove every rule
//	GET    /dynamoemu/faults/stats    per rule and per kind counts, the event log
//	GET    /dynamoemu/report          {"reporting":..,"reports":{..},"namespaces":[{"namespace","report"}]}; ?format=text prints it
//	                                  ("reports" says which of the emulator's reports collect: the access
//	                                  patterns', here, and the conventions', GET /dynamoemu/conventions;
//	                                  one that never collected answers "note" and no namespaces, not zeros)
//	DELETE /dynamoemu/report          forget the counts
//	PUT    /dynamoemu/report/design   {"design":"<design file text>"} ("" removes it)
//	POST   /dynamoemu/report/start    start collecting ({} body)
//	POST   /dynamoemu/report/stop     stop collecting
//	GET    /dynamoemu/contributors?table=T&index=I&n=10   Contributor Insights' top keys
//	GET    /dynamoemu/lag             the gates: {"lags":[{"namespace","table","index"|"reads"|"stream","delay","hold","pending"}]}
//	POST   /dynamoemu/lag             {"table":"T","stream":true,"delay":"250ms"} or "hold":true or "release":true;
//	                                  "index":"G" for a GSI, "reads":true for eventually consistent reads, in place of "stream"
//	                                  (optional "accessKey" and "region": the namespace; default the shared one,
//	                                  or the only one there is)

// lagGate is the gate POST adminpath.Lag moves: of the table's GSI index,
// of its eventually consistent reads (reads), else of its stream.
func (e *Emulator) lagGate(accessKey, region, table, index string, reads bool) (adminhttp.Gate, error) {
	switch {
	case index != "":
		return e.Lags().Index(accessKey, region, table, index)
	case reads:
		return e.Lags().Reads(accessKey, region, table)
	}
	return e.Lags().Stream(accessKey, region, table)
}
