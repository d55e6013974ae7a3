package accountops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Feature is the account-level operations (service.Config.Features).
type Feature struct{}

// Name is the feature's name. It keeps no slot.
func (Feature) Name() string { return "accountops" }

// Register installs ListTables, DescribeLimits and DescribeEndpoints.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "ListTables", boundary.List, listTables)
	service.Op(r, "DescribeLimits", boundary.List, describeLimits)
	service.Op(r, "DescribeEndpoints", boundary.Decl{On: boundary.Nothing, Access: boundary.Account}, describeEndpoints)
}

const (
	defaultListTablesLimit = 100
	maxListTablesLimit     = 100
)

func listTables(c service.Call, in *tablespec.ListTablesInput) (*tablespec.ListTablesOutput, error) {
	// AWS reports these as model constraints. DynamoDB Local words them
	// "Limit must be greater than or equal to 1" and "Limit in ListTables
	// must be <= 100".
	var cs apierr.Constraints
	if in.ExclusiveStartTableName != nil {
		apierr.NameConstraints(&cs, *in.ExclusiveStartTableName, "exclusiveStartTableName")
	}
	cs.AddViolation(apierr.LimitViolation(in.Limit, "limit", maxListTablesLimit, true))
	limit := int64(defaultListTablesLimit)
	if in.Limit != nil {
		limit = *in.Limit
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	names := c.ListedTables()
	if in.ExclusiveStartTableName != nil {
		i, found := slices.BinarySearch(names, *in.ExclusiveStartTableName)
		if found {
			i++
		}
		names = names[i:]
	}
	out := &tablespec.ListTablesOutput{TableNames: names}
	if int64(len(names)) > limit {
		out.TableNames = names[:limit]
		out.LastEvaluatedTableName = names[limit-1]
	}
	return out, nil
}

func describeLimits(c service.Call, in *tablespec.DescribeLimitsInput) (*tablespec.DescribeLimitsOutput, error) {
	// AWS's default quotas (and DynamoDB Local's answer).
	return &tablespec.DescribeLimitsOutput{
		AccountMaxReadCapacityUnits:  tablespec.AccountMaxCapacityUnits,
		AccountMaxWriteCapacityUnits: tablespec.AccountMaxCapacityUnits,
		TableMaxReadCapacityUnits:    tablespec.TableMaxCapacityUnits,
		TableMaxWriteCapacityUnits:   tablespec.TableMaxCapacityUnits,
	}, nil
}

func describeEndpoints(c service.Call, in *tablespec.DescribeEndpointsInput) (*tablespec.DescribeEndpointsOutput, error) {
	// AWS answers with its regional endpoint ("dynamodb.us-east-1.amazonaws.com",
	// cached 1440 minutes). The emulator answers with the host the client
	// actually reached, in the same scheme-less form, so a client doing
	// endpoint discovery keeps talking to the emulator. DynamoDB Local does
	// not implement the operation (UnknownOperationException).
	addr := c.Host()
	if addr == "" {
		addr = "dynamodb." + c.Region() + ".amazonaws.com"
	}
	return &tablespec.DescribeEndpointsOutput{Endpoints: []tablespec.Endpoint{{
		Address:              addr,
		CachePeriodInMinutes: 1440,
	}}}, nil
}
