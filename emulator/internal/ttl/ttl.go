package ttl

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// AWS allows one TTL change per table per hour ("Time to live has been
// modified multiple times within a fixed interval"); DynamoDB Local does
// not enforce it, and neither does the emulator, so a test can enable,
// disable and enable again.

// Feature is UpdateTimeToLive and DescribeTimeToLive (service.Config.Features).
type Feature struct{}

// Name is the feature's name. It keeps no slot: the setting is the
// core's (the table record's "ttlEnabled" and "ttlAttr" members).
func (Feature) Name() string { return "timeToLive" }

// Register installs UpdateTimeToLive and DescribeTimeToLive.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "UpdateTimeToLive", boundary.TableWrite, updateTimeToLive)
	service.Op(r, "DescribeTimeToLive", boundary.TableDescribe, describeTimeToLive)
}

// lookupTable returns the table name names (its name or ARN) as a
// control-plane request looks it up, a missing one answered with Time to
// Live's message.
func lookupTable(c service.Call, name string) (service.Table, error) {
	t, err := c.LookupTable(name)
	if errors.Is(err, apierr.ErrResourceNotFound) {
		return service.Table{}, apierr.ResourceNotFound(apierr.MsgTTLTableNotFound)
	}
	return t, err
}

// maxTTLAttrLen is the model's limit on AttributeName.
const maxTTLAttrLen = 255

// TimeToLiveSpecification is UpdateTimeToLive's request member and answer.
type TimeToLiveSpecification = shapes.TimeToLiveSpecification

// UpdateTimeToLiveInput is the UpdateTimeToLive request.
type UpdateTimeToLiveInput struct {
	TableName               *string                  `json:"TableName"`
	TimeToLiveSpecification *TimeToLiveSpecification `json:"TimeToLiveSpecification"`
}

// UpdateTimeToLiveOutput is the UpdateTimeToLive response.
type UpdateTimeToLiveOutput struct {
	TimeToLiveSpecification *TimeToLiveSpecification `json:"TimeToLiveSpecification"`
}

// DescribeTimeToLiveInput is the DescribeTimeToLive request.
type DescribeTimeToLiveInput struct {
	TableName *string `json:"TableName"`
}

// TimeToLiveDescription is DescribeTimeToLive's answer, the shape a
// backup's description shares.
type TimeToLiveDescription = tablespec.TimeToLiveDescription

// DescribeTimeToLiveOutput is the DescribeTimeToLive response.
type DescribeTimeToLiveOutput struct {
	TimeToLiveDescription TimeToLiveDescription `json:"TimeToLiveDescription"`
}

func updateTimeToLive(c service.Call, in *UpdateTimeToLiveInput) (*UpdateTimeToLiveOutput, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TableName, "tableName") {
		tablespec.TableNameConstraints(&cs, *in.TableName)
	}
	if s := in.TimeToLiveSpecification; apierr.NotNull(&cs, s, "timeToLiveSpecification") {
		apierr.NotNull(&cs, s.Enabled, "timeToLiveSpecification.enabled")
		if apierr.NotNull(&cs, s.AttributeName, "timeToLiveSpecification.attributeName") {
			if n := len(*s.AttributeName); n < 1 {
				cs.Add(apierr.Quote(*s.AttributeName), "timeToLiveSpecification.attributeName", apierr.LenGE(1))
			} else if n > maxTTLAttrLen {
				cs.Add(apierr.Quote(*s.AttributeName), "timeToLiveSpecification.attributeName", apierr.LenLE(maxTTLAttrLen))
			}
		}
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := lookupTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	spec := in.TimeToLiveSpecification
	enable, attr := *spec.Enabled, *spec.AttributeName
	err = t.Change(func(e *service.Edit) (func(bool) error, error) {
		switch cur := e.Settings().TTL; {
		case cur.Enabled && cur.Attr != attr:
			return nil, apierr.Validation(apierr.MsgTTLOtherAttribute)
		case enable && cur.Enabled:
			return nil, apierr.Validation(apierr.MsgTTLAlreadyEnabled)
		case !enable && !cur.Enabled:
			return nil, apierr.Validation(apierr.MsgTTLAlreadyDisabled)
		}
		next := tablespec.TTL{Enabled: enable}
		if enable {
			next.Attr = attr // the attribute is kept only while enabled
		}
		e.Settings().TTL = next
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return &UpdateTimeToLiveOutput{TimeToLiveSpecification: spec}, nil
}

func describeTimeToLive(c service.Call, in *DescribeTimeToLiveInput) (*DescribeTimeToLiveOutput, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TableName, "tableName") {
		tablespec.TableNameConstraints(&cs, *in.TableName)
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := lookupTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	spec := t.Definition().Settings().TTL
	d := TimeToLiveDescription{TimeToLiveStatus: "DISABLED"}
	if spec.Enabled {
		d = TimeToLiveDescription{TimeToLiveStatus: "ENABLED", AttributeName: spec.Attr}
	}
	return &DescribeTimeToLiveOutput{TimeToLiveDescription: d}, nil
}
