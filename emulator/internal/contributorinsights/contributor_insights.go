package contributorinsights

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Contributor Insights: UpdateContributorInsights,
// DescribeContributorInsights and ListContributorInsights, answered from
// the namespace's recorder (package insights keeps the states, AWS's rule
// names and the counters). DynamoDB Local answers UnknownOperation to all
// three, so the spec is AWS's API reference: the members, the enums
// ContributorInsightsAction (ENABLE, DISABLE), ContributorInsightsMode
// (ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS) and
// ContributorInsightsStatus, ListContributorInsights' MaxResults of at
// most 100. A missing table or index is ResourceNotFoundException with
// the message of the data plane's (no captured AWS answer for these
// operations was found); an IndexName that is an LSI is not found, as
// Contributor Insights exists for tables and GSIs only.

// Feature is Contributor Insights' operations (service.Config.Features).
type Feature struct{}

// Name is the feature's name. It keeps no slot: the rules are the
// namespace's recorder's, kept in its DB metadata.
func (Feature) Name() string { return "contributorInsights" }

// Register installs UpdateContributorInsights,
// DescribeContributorInsights and ListContributorInsights.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "UpdateContributorInsights", boundary.TableWrite, updateContributorInsights)
	service.Op(r, "DescribeContributorInsights", boundary.TableDescribe, describeContributorInsights)
	service.Op(r, "ListContributorInsights", boundary.List, listContributorInsights)
}

const (
	enumCIAction = "ENABLE, DISABLE"
	enumCIMode   = "ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS"
	maxCIList    = 100
)

// UpdateContributorInsightsInput is the UpdateContributorInsights request.
type UpdateContributorInsightsInput struct {
	TableName                 *string `json:"TableName"`
	IndexName                 *string `json:"IndexName"`
	ContributorInsightsAction *string `json:"ContributorInsightsAction"`
	ContributorInsightsMode   *string `json:"ContributorInsightsMode"`
}

// UpdateContributorInsightsOutput is its response.
type UpdateContributorInsightsOutput struct {
	TableName                 string `json:"TableName"`
	IndexName                 string `json:"IndexName,omitempty"`
	ContributorInsightsStatus string `json:"ContributorInsightsStatus"`
	ContributorInsightsMode   string `json:"ContributorInsightsMode,omitempty"`
}

// DescribeContributorInsightsInput is the DescribeContributorInsights request.
type DescribeContributorInsightsInput struct {
	TableName *string `json:"TableName"`
	IndexName *string `json:"IndexName"`
}

// DescribeContributorInsightsOutput is its response.
type DescribeContributorInsightsOutput struct {
	TableName                   string   `json:"TableName"`
	IndexName                   string   `json:"IndexName,omitempty"`
	ContributorInsightsRuleList []string `json:"ContributorInsightsRuleList,omitempty"`
	ContributorInsightsStatus   string   `json:"ContributorInsightsStatus"`
	ContributorInsightsMode     string   `json:"ContributorInsightsMode,omitempty"`
	LastUpdateDateTime          *float64 `json:"LastUpdateDateTime,omitempty"`
}

// ListContributorInsightsInput is the ListContributorInsights request.
type ListContributorInsightsInput struct {
	TableName  *string `json:"TableName"`
	MaxResults *int64  `json:"MaxResults"`
	NextToken  *string `json:"NextToken"`
}

// ContributorInsightsSummary is one entry of ListContributorInsights.
type ContributorInsightsSummary struct {
	TableName                 string `json:"TableName"`
	IndexName                 string `json:"IndexName,omitempty"`
	ContributorInsightsStatus string `json:"ContributorInsightsStatus"`
	ContributorInsightsMode   string `json:"ContributorInsightsMode,omitempty"`
}

// ListContributorInsightsOutput is its response.
type ListContributorInsightsOutput struct {
	ContributorInsightsSummaries []ContributorInsightsSummary `json:"ContributorInsightsSummaries"`
	NextToken                    string                       `json:"NextToken,omitempty"`
}

// ciTarget looks up TableName and IndexName and returns the table, the
// GSI's name ("" for the table) and whether its key has a sort key.
func ciTarget(c service.Call, tableName, indexName *string) (service.Table, string, bool, error) {
	t, err := c.LookupDataTable(*tableName)
	if err != nil {
		return service.Table{}, "", false, err
	}
	if indexName == nil {
		return t, "", t.Schema().HasSort(), nil
	}
	gsis, _ := t.Indexes()
	for _, x := range gsis {
		if x.Name == *indexName {
			return t, *indexName, x.Schema.HasSort(), nil
		}
	}
	return service.Table{}, "", false, apierr.ResourceNotFound(apierr.MsgResourceNotFound)
}

func updateContributorInsights(c service.Call, in *UpdateContributorInsightsInput) (*UpdateContributorInsightsOutput, error) {
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2,
		readparams.IndexNameConstraint(in.IndexName),
		apierr.NullViolation("contributorInsightsAction", in.ContributorInsightsAction == nil),
		apierr.EnumPtrViolation("contributorInsightsAction", in.ContributorInsightsAction, enumCIAction),
		apierr.EnumPtrViolation("contributorInsightsMode", in.ContributorInsightsMode, enumCIMode),
	); err != nil {
		return nil, err
	}
	t, index, hasSort, err := ciTarget(c, in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	mode := accessreport.CIMode("")
	if in.ContributorInsightsMode != nil {
		mode = accessreport.CIMode(*in.ContributorInsightsMode)
	}
	rec := reportstage.RecorderOf(t.Space())
	ci := rec.UpdateContributorInsights(t.Info().Name, index, hasSort, *in.ContributorInsightsAction == "ENABLE", mode)
	if !t.Live() {
		// Deleted meanwhile: its DeleteTable may have forgotten its
		// Contributor Insights before this update recorded it.
		rec.ForgetContributorInsights(t.Info().Name, "")
	}
	reportstage.SaveContributorInsights(t.Space())
	return &UpdateContributorInsightsOutput{
		TableName: ci.TableName, IndexName: ci.IndexName,
		ContributorInsightsStatus: string(ci.Status), ContributorInsightsMode: string(ci.Mode),
	}, nil
}

func describeContributorInsights(c service.Call, in *DescribeContributorInsightsInput) (*DescribeContributorInsightsOutput, error) {
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2, readparams.IndexNameConstraint(in.IndexName)); err != nil {
		return nil, err
	}
	t, index, _, err := ciTarget(c, in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	ci := reportstage.RecorderOf(t.Space()).DescribeContributorInsights(t.Info().Name, index)
	out := &DescribeContributorInsightsOutput{
		TableName: ci.TableName, IndexName: ci.IndexName, ContributorInsightsRuleList: ci.RuleList,
		ContributorInsightsStatus: string(ci.Status), ContributorInsightsMode: string(ci.Mode),
	}
	if !ci.LastUpdate.IsZero() {
		s := float64(ci.LastUpdate.UnixMilli()) / 1000
		out.LastUpdateDateTime = &s
	}
	return out, nil
}

func listContributorInsights(c service.Call, in *ListContributorInsightsInput) (*ListContributorInsightsOutput, error) {
	var v string
	if in.MaxResults != nil && *in.MaxResults > maxCIList {
		v = apierr.Violation(apierr.QuoteInt(*in.MaxResults), "maxResults", apierr.ValLE(maxCIList))
	}
	if err := apierr.ConstraintErrors(v); err != nil {
		return nil, err
	}
	table := ""
	if in.TableName != nil {
		t, err := c.LookupDataTable(*in.TableName)
		if err != nil {
			return nil, err
		}
		table = t.Info().Name
	}
	var all []accessreport.ContributorInsights
	if rec := reportstage.Existing(c.Space()); rec != nil {
		all = rec.ListContributorInsights(table)
	}
	start := 0
	if in.NextToken != nil {
		n, err := strconv.Atoi(*in.NextToken)
		if err != nil || n < 0 || n > len(all) {
			return nil, apierr.Validation(apierr.MsgCINextToken)
		}
		start = n
	}
	limit := maxCIList
	if in.MaxResults != nil && *in.MaxResults > 0 {
		limit = int(*in.MaxResults)
	}
	out := &ListContributorInsightsOutput{ContributorInsightsSummaries: []ContributorInsightsSummary{}}
	end := min(len(all), start+limit)
	for _, ci := range all[start:end] {
		out.ContributorInsightsSummaries = append(out.ContributorInsightsSummaries, ContributorInsightsSummary{
			TableName: ci.TableName, IndexName: ci.IndexName,
			ContributorInsightsStatus: string(ci.Status), ContributorInsightsMode: string(ci.Mode),
		})
	}
	if end < len(all) {
		out.NextToken = strconv.Itoa(end)
	}
	return out, nil
}
