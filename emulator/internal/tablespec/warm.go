package tablespec

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Warm throughput: the read and write units per second a table or a GSI
// can take at once (API_WarmThroughput). Every table and GSI has one:
// AWS reports it in DescribeTable even when none was asked for.
//
// What AWS answers, from public records of its responses:
//   - the developer guide (warm-throughput-scenarios.html): "A new
//     on-demand table starts with a warm throughput of 12,000 read units
//     per second and 4,000 write units per second";
//   - localstack/localstack tests/aws/services/dynamodb
//     test_dynamodb.snapshot.json (AWS-validated, October 2025): a
//     PROVISIONED 5/5 table describes WarmThroughput 5/5 ACTIVE, its GSI
//     at 1/1 describes 1/1 ACTIVE, an on-demand table and its GSI
//     12000/4000 ACTIVE; CreateTable's answer has no WarmThroughput unless
//     one was given, and then it shows it UPDATING; DeleteTable's has none;
//   - github.com/aws-controllers-k8s/dynamodb-controller
//     docs/api-quirks (AWS, October 2026): DDB-TABLE-039 (CreateTable's
//     minimums and their words), DDB-TABLE-061 (a PROVISIONED table's
//     warm throughput is the highest capacity it ever had; after a switch
//     to on-demand it is 12000/4000 and stays so), DDB-TABLE-179 and
//     DDB-TABLE-059 (a decrease is refused, an equal value accepted; the
//     UpdateTable answer shows the warm throughput UPDATING), DDB-TABLE-433
//     and DDB-TABLE-442 (WarmThroughput comes alone in an UpdateTable,
//     GSI updates aside), DDB-TABLE-456 (a GSI update's empty
//     WarmThroughput).

// The warm throughput of an on-demand table or GSI that asked for none.
const (
	OnDemandWarmRead  = 12000
	OnDemandWarmWrite = 4000
)

// WarmDocURL is the page AWS's CreateTable error points to.
const WarmDocURL = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial"

// Warm is a warm throughput in read and write units per second. In a
// definition it is the floor the table or GSI has reached (zero: none
// yet); what is reported is that floor raised to the default of its
// current capacity (WarmOf).
type Warm struct{ Read, Write int64 }

// Max is the larger of w and o, member by member.
func (w Warm) Max(o Warm) Warm { return Warm{max(w.Read, o.Read), max(w.Write, o.Write)} }

// DefaultWarm is the warm throughput of a table or GSI that asked for
// none: its provisioned capacity, or 12000/4000 on demand (tp nil).
func DefaultWarm(tp *Throughput) Warm {
	if tp == nil {
		return Warm{OnDemandWarmRead, OnDemandWarmWrite}
	}
	return Warm{tp.Read, tp.Write}
}

// WarmOf is the warm throughput reported for floor w of a table or GSI
// whose provisioned capacity is tp (nil: on demand).
func WarmOf(w Warm, tp *Throughput) Warm { return w.Max(DefaultWarm(tp)) }

// Describe is w as DescribeTable reports it, in status.
func (w Warm) Describe(status string) *WarmThroughputDescription {
	return &WarmThroughputDescription{ReadUnitsPerSecond: w.Read, WriteUnitsPerSecond: w.Write, Status: status}
}

// WarmStatus is the warm throughput's Status for a table or index in
// status: ACTIVE once it is, DELETING while it goes, else UPDATING.
func WarmStatus(status string) string {
	switch status {
	case "ACTIVE", "DELETING":
		return status
	}
	return "UPDATING"
}

// warmWhose names what a warm throughput error is about: "table" or
// "index <name>".
func warmWhose(index string) string {
	if index == "" {
		return "table"
	}
	return "index " + index
}

// CheckCreateWarm validates CreateTable's WarmThroughput w for the table
// (index "") or a GSI (index its name) with provisioned capacity tp (nil:
// on demand), and returns the floor it sets (zero: none given). A value
// below the capacity, or below 12000/4000 on demand, is refused; a
// member not given takes the default.
func CheckCreateWarm(w *WarmThroughput, index string, tp *Throughput) (Warm, error) {
	if w.Empty() {
		return Warm{}, nil
	}
	def := DefaultWarm(tp)
	got := def
	if w.ReadUnitsPerSecond != nil {
		got.Read = *w.ReadUnitsPerSecond
	}
	if w.WriteUnitsPerSecond != nil {
		got.Write = *w.WriteUnitsPerSecond
	}
	for _, m := range []struct {
		name, capacity string
		got, min       int64
	}{{"ReadUnitsPerSecond", "ReadCapacityUnits", got.Read, def.Read}, {"WriteUnitsPerSecond", "WriteCapacityUnits", got.Write, def.Write}} {
		if m.got >= m.min {
			continue
		}
		if tp == nil {
			return Warm{}, apierr.Validation(apierr.MsgWarmBelowOnDemand(m.name, warmWhose(index), WarmDocURL))
		}
		return Warm{}, apierr.Validation(apierr.MsgWarmBelowCapacity(m.name, warmWhose(index), m.capacity))
	}
	return got, nil
}

// RaiseWarm validates UpdateTable's WarmThroughput w for the table
// (index "") or a GSI whose warm throughput is cur, and returns the new
// one: a member not given keeps its value; one lower than now is
// refused (an equal one is accepted).
func RaiseWarm(w *WarmThroughput, index string, cur Warm) (Warm, error) {
	got := cur
	if w.ReadUnitsPerSecond != nil {
		got.Read = *w.ReadUnitsPerSecond
	}
	if w.WriteUnitsPerSecond != nil {
		got.Write = *w.WriteUnitsPerSecond
	}
	if got.Read < cur.Read {
		return cur, apierr.Validation(apierr.MsgWarmDecrease("ReadUnitsPerSecond", warmWhose(index)))
	}
	if got.Write < cur.Write {
		return cur, apierr.Validation(apierr.MsgWarmDecrease("WriteUnitsPerSecond", warmWhose(index)))
	}
	return got, nil
}

// CreatedWarm is warm throughput d as CreateTable's answer shows it: only
// where the request asked for one (asked), UPDATING.
func CreatedWarm(d *WarmThroughputDescription, asked *WarmThroughput) *WarmThroughputDescription {
	if asked.Empty() || d == nil {
		return nil
	}
	d.Status = "UPDATING"
	return d
}

// AskedGSIWarm is the WarmThroughput CreateTable asked for the GSI
// called name (nil: none).
func AskedGSIWarm(gsis []GlobalSecondaryIndex, name string) *WarmThroughput {
	for _, x := range gsis {
		if x.IndexName != nil && *x.IndexName == name {
			return x.WarmThroughput
		}
	}
	return nil
}

// RaiseWarmFloors keeps in each GSI's floor what its capacity now gives,
// before a change: warm throughput never goes down (DDB-TABLE-061).
func (m *Indexes) RaiseWarmFloors() {
	for i, x := range m.GSIs {
		if w := x.WarmNow(); w != x.Warm {
			y := *x
			y.Warm = w
			m.GSIs[i] = &y
		}
	}
}

// WarmingGSIs shows, in UpdateTable's answer gsis, the GSIs whose warm
// throughput the request raises as AWS shows them: the values before
// (from before), UPDATING.
func WarmingGSIs(gsis []GlobalSecondaryIndexDescription, updates []GlobalSecondaryIndexUpdate, before *Indexes) {
	for _, u := range updates {
		if u.Update == nil || u.Update.WarmThroughput.Empty() {
			continue
		}
		i := before.GSIIndex(*u.Update.IndexName)
		for j, g := range gsis {
			if i >= 0 && g.IndexName == *u.Update.IndexName {
				gsis[j].WarmThroughput = before.GSIs[i].WarmNow().Describe("UPDATING")
			}
		}
	}
}

// CreatedDescription is CreateTable's answer d to in: warm throughput as
// CreatedWarm shows it; CREATING, as AWS's answer says (API_CreateTable:
// "DynamoDB immediately returns a response with a TableStatus of
// CREATING"; a published capture of AWS's answer shows it,
// records/table-answers.jsonl), even when the table is ACTIVE at once:
// without a transient delay it is ACTIVE from the next request on, so a
// waiter's first DescribeTable finds it ACTIVE; and a BillingModeSummary
// of the BillingMode alone (the same capture), DescribeTable giving the
// time the mode was set.
func CreatedDescription(d *shapes.TableDescription, in *CreateTableInput) *shapes.TableDescription {
	d.TableStatus = "CREATING"
	if b := d.BillingModeSummary; b != nil {
		d.BillingModeSummary = &BillingModeSummary{BillingMode: b.BillingMode}
	}
	d.WarmThroughput = CreatedWarm(d.WarmThroughput, in.WarmThroughput)
	for i, g := range d.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes[i].WarmThroughput = CreatedWarm(g.WarmThroughput, AskedGSIWarm(in.GlobalSecondaryIndexes, g.IndexName))
	}
	return d
}
