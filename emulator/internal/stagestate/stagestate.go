package stagestate

import (
	"encoding/json"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
)

// MetaKeyContributorInsights is the DB metadata key of a namespace's
// Contributor Insights configuration.
const MetaKeyContributorInsights = "emulator/contributor-insights"

// ContributorInsightsVersion is the version of ciRecord's encoding.
const ContributorInsightsVersion = 1

// ciRecord is a namespace's saved Contributor Insights configuration.
type ciRecord struct {
	V      int                    `json:"v"`
	States []accessreport.CIState `json:"states"`
}

// ContributorInsights is the record of a Contributor Insights
// configuration (saved as JSON).
func ContributorInsights(states []accessreport.CIState) any {
	return ciRecord{V: ContributorInsightsVersion, States: states}
}

// DecodeContributorInsights reads a saved configuration and the
// version it was written in (readable if err is nil and the version is
// ContributorInsightsVersion).
func DecodeContributorInsights(b []byte) (states []accessreport.CIState, version int, err error) {
	var r ciRecord
	err = json.Unmarshal(b, &r)
	return r.States, r.V, err
}

// MetaKeyLags is the DB metadata key of a namespace's lags.
const MetaKeyLags = "emulator/lags"

// LagsVersion is the version of lagRecord's encoding.
const LagsVersion = 1

// lagRecord is a namespace's saved lags.
type lagRecord struct {
	V    int        `json:"v"`
	Lags []LagState `json:"lags"`
}

// Lags is the record of a namespace's lags (saved as JSON).
func Lags(lags []LagState) any {
	return lagRecord{V: LagsVersion, Lags: lags}
}

// DecodeLags reads saved lags and the version they were written in
// (readable if err is nil and the version is LagsVersion).
func DecodeLags(b []byte) (lags []LagState, version int, err error) {
	var r lagRecord
	err = json.Unmarshal(b, &r)
	return r.Lags, r.V, err
}

// LagState is one gate of a namespace: the view it lags (a table's GSI
// Index, its eventually consistent Reads or its Stream), its mode and
// the commits it holds back now.
type LagState struct {
	Namespace string        `json:"namespace,omitempty"`
	Table     string        `json:"table"`
	Index     string        `json:"index,omitempty"`
	Reads     bool          `json:"reads,omitempty"`
	Stream    bool          `json:"stream,omitempty"`
	Delay     time.Duration `json:"delayNs,omitempty"`
	Hold      bool          `json:"hold,omitempty"`
	Pending   int           `json:"-"` // commits (a transaction is one) not visible now
}

// LagSetting lags one view of the tables called Table: the GSI Index
// ("*": every GSI), its eventually consistent reads (Reads) or its
// stream (Stream); by Delay on the emulator's clock, or Hold (until a
// Release through the API or the admin endpoint).
type LagSetting struct {
	Table  string
	Index  string
	Reads  bool
	Stream bool
	Delay  time.Duration
	Hold   bool
}

// Gate is a gate on clock in the setting's mode.
func (l LagSetting) Gate(clock func() time.Time) *lag.Gate {
	g := lag.NewGate(clock)
	if l.Hold {
		g.Hold()
	} else {
		g.SetDelay(l.Delay)
	}
	return g
}
