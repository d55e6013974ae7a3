package report

// ContributorRule is what one Contributor Insights rule of a table or
// GSI reports: its top contributors (keys, partition key first) and their
// values (ConsumedThroughputUnits, 3 x write units + read units, for the
// accessed rules; ThrottleCount for the throttled ones). A rule with no
// contributors yet has none (nil).
//
// It has two JSON forms, both from this one declaration: encoding/json's
// (the Go names, as a program marshalling Reports.Contributors gets
// them) and the admin endpoint's (GET /dynamoemu/contributors: lower-case
// names, and [] for no contributors), which the endpoint writes from
// these fields.
type ContributorRule struct {
	// Rule is the rule's name, as DescribeContributorInsights lists it.
	Rule string
	// Contributors are the top contributors, largest first.
	Contributors []Contributor
}

// Contributor is one key of a Contributor Insights rule and its value.
type Contributor struct {
	// Keys are the key's values as text, partition key first.
	Keys []string
	// Value is the key's total since the counters were last reset.
	Value float64
}
