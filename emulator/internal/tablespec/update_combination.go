package tablespec

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// UpdateMembers are the members an UpdateTable request gives, by name
// (BillingMode, ProvisionedThroughput, GlobalSecondaryIndexUpdates,
// VectorIndexUpdates, StreamSpecification, SSESpecification, TableClass,
// DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput, and the
// members features own): true when given.
type UpdateMembers map[string]bool

// others reports whether a member other than those excluded is given.
func (m UpdateMembers) others(exclude ...string) bool {
	for name, given := range m {
		if given && !slices.Contains(exclude, name) {
			return true
		}
	}
	return false
}

// MemberRules say how a member of an UpdateTable request a feature owns
// combines with the rest of the request.
type MemberRules struct {
	// Alone is the answer to a request with the member and another
	// change: the member comes alone, save for the members With names.
	Alone error
	// With names the members that may come with it (others the feature
	// owns): the feature judges them together, seeing the whole request.
	With []string
	// NoChange: the member is no change by itself; a request with only
	// it gets the answer of one that changes nothing.
	NoChange bool
}

// OwnedMember is a member a feature owns, given in an UpdateTable
// request, and its rules.
type OwnedMember struct {
	Name string
	MemberRules
}

// CheckUpdateCombination applies AWS's rule that an UpdateTable request
// makes one kind of change: SSE, a member a feature owns (owned:
// ReplicaUpdates), table class and deletion protection each must come
// alone; on-demand limits may come only with BillingMode; warm
// throughput comes alone save for GSI updates (a GSI creation has its
// own message); streams, table throughput and index creation or deletion
// (indexOps of them) exclude each other. BillingMode with throughput
// (table and GSI updates) and BillingMode with a stream change may be
// combined (aws-controllers-k8s dynamodb-controller api-quirks,
// DDB-TABLE-433 and DDB-TABLE-442). DynamoDB Local accepts most
// combinations; it refuses streams with throughput ("Cannot change IOPS
// and Streams at the same time.").
func CheckUpdateCombination(m UpdateMembers, gsi []GlobalSecondaryIndexUpdate, indexOps int, owned []OwnedMember) error {
	if m["SSESpecification"] && m.others("SSESpecification") {
		return apierr.Validation(apierr.MsgOnlyOperation("Server-Side Encryption"))
	}
	for _, o := range owned { // a feature's member comes alone, or with its With
		if m.others(append([]string{o.Name}, o.With...)...) {
			return o.Alone
		}
	}
	switch {
	case m["TableClass"] && m.others("TableClass"):
		return apierr.Validation(apierr.MsgOnlyOperation("TableClass"))
	case m["DeletionProtectionEnabled"] && m.others("DeletionProtectionEnabled"):
		return apierr.Validation(apierr.MsgOnlyOperation("DeletionProtection"))
	case m["OnDemandThroughput"] && (m["ProvisionedThroughput"] || m["StreamSpecification"] ||
		m["GlobalSecondaryIndexUpdates"] || m["VectorIndexUpdates"] || m["WarmThroughput"]):
		return apierr.Validation(apierr.MsgOnDemandOnlyWithBillingMode)
	case m["WarmThroughput"]:
		return checkWarmAlone(m, gsi)
	case m["StreamSpecification"] && m["ProvisionedThroughput"]:
		return apierr.Validation(apierr.MsgStreamWithIOPS)
	case indexOps > 0 && m["ProvisionedThroughput"]:
		return apierr.Validation(apierr.MsgIndexWithIOPS)
	case indexOps > 0 && m["StreamSpecification"]:
		return apierr.Validation(apierr.MsgIndexWithStream)
	}
	return nil
}

// checkWarmAlone: WarmThroughput comes alone in an UpdateTable, save
// for GSI updates (AWS's own example raises a table's and a GSI's at
// once); a GSI creation has its own message (DDB-TABLE-433,
// DDB-TABLE-442). A GSI deletion is taken as any other member (no
// record of AWS's answer).
func checkWarmAlone(m UpdateMembers, gsi []GlobalSecondaryIndexUpdate) error {
	onlyUpdates := true
	for _, u := range gsi {
		if u.Create != nil {
			return apierr.Validation(apierr.MsgWarmWithIndexCreate)
		}
		onlyUpdates = onlyUpdates && u.Update != nil
	}
	if !onlyUpdates || m.others("WarmThroughput", "GlobalSecondaryIndexUpdates") {
		return apierr.Validation(apierr.MsgWarmOnlyOperation)
	}
	return nil
}

// UpdateEnums adds the enum violations of UpdateTable's TableClass and
// MultiRegionConsistency to cs.
func UpdateEnums(cs *apierr.Constraints, class, mode *string) {
	apierr.Enum(cs, class, "tableClass", "STANDARD", "STANDARD_INFREQUENT_ACCESS")
	apierr.Enum(cs, mode, "multiRegionConsistency", "EVENTUAL", "STRONG")
}
