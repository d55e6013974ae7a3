package tablespec

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// UpdateTable's index updates, checked as a function of the request
// alone, before anything the table's definition says.

// CheckGSIUpdates applies the request-level rules of
// GlobalSecondaryIndexUpdates (dynalite's tests against AWS).
func CheckGSIUpdates(updates []GlobalSecondaryIndexUpdate) error {
	seen := map[string]bool{}
	for _, u := range updates {
		if countActions(u) > 1 {
			return apierr.Validation(apierr.MsgGSIUpdateTwoActions)
		}
		var name string
		switch {
		case u.Update != nil:
			name = *u.Update.IndexName
			if w := u.Update.WarmThroughput; w != nil && w.Empty() {
				// Before the table is looked up (DDB-TABLE-456).
				return apierr.Validation(apierr.MsgGSIWarmEmpty(name))
			}
		case u.Create != nil:
			name = *u.Create.IndexName
			if err := CheckIncludeProjection(u.Create.Projection); err != nil {
				return err
			}
		case u.Delete != nil:
			name = *u.Delete.IndexName
		default:
			return apierr.Validation(apierr.MsgGSIUpdateEmpty)
		}
		if seen[name] {
			return apierr.Validation(apierr.MsgGSIUpdateTwice(name))
		}
		seen[name] = true
	}
	return nil
}

// countActions is how many of Create, Update and Delete u holds.
func countActions(u GlobalSecondaryIndexUpdate) int {
	n := 0
	for _, set := range []bool{u.Create != nil, u.Update != nil, u.Delete != nil} {
		if set {
			n++
		}
	}
	return n
}

// GSIUpdateConstraints records the model-constraint violations of
// GlobalSecondaryIndexUpdates.
func GSIUpdateConstraints(cs *apierr.Constraints, updates []GlobalSecondaryIndexUpdate) {
	for i, u := range updates {
		p := "globalSecondaryIndexUpdates." + strconv.Itoa(i+1) + ".member."
		if u.Update != nil {
			if apierr.NotNull(cs, u.Update.IndexName, p+"update.indexName") {
				apierr.NameConstraints(cs, *u.Update.IndexName, p+"update.indexName")
			}
			ThroughputConstraints(cs, u.Update.ProvisionedThroughput, p+"update.provisionedThroughput")
		}
		if u.Create != nil {
			IndexConstraints(cs, u.Create.IndexName, u.Create.KeySchema, u.Create.Projection, p+"create.", MaxGSIKeyAttrs)
			ThroughputConstraints(cs, u.Create.ProvisionedThroughput, p+"create.provisionedThroughput")
		}
		if u.Delete != nil && apierr.NotNull(cs, u.Delete.IndexName, p+"delete.indexName") {
			apierr.NameConstraints(cs, *u.Delete.IndexName, p+"delete.indexName")
		}
	}
}

// VectorUpdateConstraints records the model-constraint violations of
// VectorIndexUpdates.
func VectorUpdateConstraints(cs *apierr.Constraints, updates []VectorIndexUpdate) {
	for i, u := range updates {
		p := "vectorIndexUpdates." + strconv.Itoa(i+1) + ".member."
		if u.Create != nil {
			VectorIndexConstraints(cs, u.Create, p+"create.")
		}
		if u.Delete != nil && apierr.NotNull(cs, u.Delete.IndexName, p+"delete.indexName") {
			apierr.NameConstraints(cs, *u.Delete.IndexName, p+"delete.indexName")
		}
	}
}

// CheckVectorUpdates applies the request-level rules: each update has
// Create or Delete, and names an index once.
func CheckVectorUpdates(updates []VectorIndexUpdate) error {
	seen := map[string]bool{}
	for _, u := range updates {
		var name string
		switch {
		case u.Create != nil && u.Delete == nil:
			name = *u.Create.IndexName
		case u.Delete != nil && u.Create == nil:
			name = *u.Delete.IndexName
		default:
			return apierr.Validation(apierr.MsgVectorIndexUpdateEmpty)
		}
		if seen[name] {
			return apierr.Validation(apierr.MsgGSIUpdateTwice(name))
		}
		seen[name] = true
	}
	return nil
}
