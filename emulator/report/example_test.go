package report_test

import (
	"os"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// A report as Reports.Access returns it, printed for people.
func ExampleReport_WriteText() {
	rep := &report.Report{
		Since: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC),
		Tables: []report.TableReport{{
			Table: "Orders",
			Resources: []report.ResourceReport{{
				Requests: 3, Gets: 2, Writes: 1, ItemsRead: 2, ItemsReturned: 2, ReadUnits: 1, WriteUnits: 1,
				Operations: []report.OpReport{
					{Op: "GetItem", Requests: 2, ItemsRead: 2, ItemsReturned: 2, ReadUnits: 1},
					{Op: "PutItem", Requests: 1, WriteUnits: 1},
				},
			}},
			UnusedIndexes: []string{"byCustomer"},
		}},
		Costliest: []report.CostlyRequest{{Op: "PutItem", Access: "put", Table: "Orders", Key: "pk=ORDER#1", WriteUnits: 1, Cost: report.WritePriceRatio}},
	}
	if err := rep.WriteText(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Access-pattern report since 2026-11-26T12:00:00Z
	//
	// Table Orders
	//   table: 3 requests (2 gets, 0 queries, 0 scans, 1 writes), items read 2 returned 2, 1 RCU 1 WCU
	//     GetItem                     2 requests  read 2 returned 2  1 RCU 0 WCU
	//     PutItem                     1 requests  read 0 returned 0  0 RCU 1 WCU
	//   unused indexes: byCustomer
	//
	// Costliest requests (read request units, a write unit counted as 5):
	//          5  PutItem            Orders pk=ORDER#1  read 0 returned 0
}
