package resources

import (
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Kinesis Data Streams for DynamoDB: EnableKinesisStreamingDestination,
// DisableKinesisStreamingDestination, DescribeKinesisStreamingDestination
// and UpdateKinesisStreamingDestination (AWS API reference,
// API_EnableKinesisStreamingDestination and its siblings). The control
// plane only: a destination goes ENABLING -> ACTIVE, UPDATING -> ACTIVE,
// DISABLING -> DISABLED as on AWS (each transient state lasts the
// service's TransientDelay), and is kept in the table's definition (the
// feature's slot: service.Definition.Slot); no
// record is ever delivered to Kinesis (docs/global-tables.md), and the stream ARN is
// checked for its form only, since there is no Kinesis to ask.

// KinesisDestinations is the feature of Kinesis streaming destinations
// (service.Config.Features).
type KinesisDestinations struct{}

// kinesisSlot is the feature's slot: a JSON list of kinesisDest. Records
// written while the feature was in the core hold it in their "ext"
// member under the same name, which the core reads as the slot.
const kinesisSlot = "kinesis"

// Name is the key of the destinations in a table's definition and record.
func (KinesisDestinations) Name() string { return kinesisSlot }

// Register installs Enable, Disable, Describe and
// UpdateKinesisStreamingDestination.
func (KinesisDestinations) Register(r service.Registrar) {
	service.Op(r, "EnableKinesisStreamingDestination", boundary.TableWrite, enableKinesisDest)
	service.Op(r, "DisableKinesisStreamingDestination", boundary.TableWrite, disableKinesisDest)
	service.Op(r, "DescribeKinesisStreamingDestination", boundary.TableDescribe, describeKinesisDest)
	service.Op(r, "UpdateKinesisStreamingDestination", boundary.TableWrite, updateKinesisDest)
}

// destinationsOf decodes the table's destinations from its slot.
func destinationsOf(slot json.RawMessage) ([]kinesisDest, error) {
	if slot == nil {
		return nil, nil
	}
	var ds []kinesisDest
	if err := json.Unmarshal(slot, &ds); err != nil {
		return nil, fmt.Errorf("kinesis destinations of a table: %w", err)
	}
	return ds, nil
}

// Destination states (API_KinesisDataStreamDestination).
const (
	destEnabling  = "ENABLING"
	destActive    = "ACTIVE"
	destDisabling = "DISABLING"
	destDisabled  = "DISABLED"
	destUpdating  = "UPDATING"
)

// kinesisDest is one destination as recorded: its state is Status until
// Until, then Next (an empty Next: Status for good).
type kinesisDest struct {
	StreamArn string    `json:"arn"`
	Status    string    `json:"status"`
	Until     time.Time `json:"until,omitzero"`
	Next      string    `json:"next,omitempty"`
	Precision string    `json:"precision,omitempty"` // none (MILLISECOND in effect), MILLISECOND or MICROSECOND
}

// statusAt is the destination's state at now.
func (d kinesisDest) statusAt(now time.Time) string {
	if d.Next != "" && !now.Before(d.Until) {
		return d.Next
	}
	return d.Status
}

// KinesisStreamingConfiguration is Enable/UpdateKinesisStreamingConfiguration.
type KinesisStreamingConfiguration struct {
	ApproximateCreationDateTimePrecision *string `json:"ApproximateCreationDateTimePrecision,omitempty"`
}

// KinesisStreamingDestinationInput is the request of Enable and Disable.
type KinesisStreamingDestinationInput struct {
	TableName                           *string                        `json:"TableName"`
	StreamArn                           *string                        `json:"StreamArn"`
	EnableKinesisStreamingConfiguration *KinesisStreamingConfiguration `json:"EnableKinesisStreamingConfiguration"`
}

// KinesisStreamingDestinationOutput is the answer of Enable and Disable.
type KinesisStreamingDestinationOutput struct {
	TableName                           string                         `json:"TableName"`
	StreamArn                           string                         `json:"StreamArn"`
	DestinationStatus                   string                         `json:"DestinationStatus"`
	EnableKinesisStreamingConfiguration *KinesisStreamingConfiguration `json:"EnableKinesisStreamingConfiguration,omitempty"`
}

// UpdateKinesisStreamingDestinationInput is the Update request.
type UpdateKinesisStreamingDestinationInput struct {
	TableName                           *string                        `json:"TableName"`
	StreamArn                           *string                        `json:"StreamArn"`
	UpdateKinesisStreamingConfiguration *KinesisStreamingConfiguration `json:"UpdateKinesisStreamingConfiguration"`
}

// UpdateKinesisStreamingDestinationOutput is the Update answer.
type UpdateKinesisStreamingDestinationOutput struct {
	TableName                           string                         `json:"TableName"`
	StreamArn                           string                         `json:"StreamArn"`
	DestinationStatus                   string                         `json:"DestinationStatus"`
	UpdateKinesisStreamingConfiguration *KinesisStreamingConfiguration `json:"UpdateKinesisStreamingConfiguration,omitempty"`
}

// DescribeKinesisStreamingDestinationInput is the Describe request.
type DescribeKinesisStreamingDestinationInput struct {
	TableName *string `json:"TableName"`
}

// KinesisDataStreamDestination is one destination in Describe's answer.
type KinesisDataStreamDestination struct {
	StreamArn                            string `json:"StreamArn"`
	DestinationStatus                    string `json:"DestinationStatus"`
	DestinationStatusDescription         string `json:"DestinationStatusDescription,omitempty"`
	ApproximateCreationDateTimePrecision string `json:"ApproximateCreationDateTimePrecision,omitempty"`
}

// DescribeKinesisStreamingDestinationOutput is the Describe answer.
type DescribeKinesisStreamingDestinationOutput struct {
	TableName                     string                         `json:"TableName"`
	KinesisDataStreamDestinations []KinesisDataStreamDestination `json:"KinesisDataStreamDestinations"`
}

// kinesisRequest checks the members every Kinesis operation shares and
// returns the table (ACTIVE: AWS answers ResourceInUseException
// otherwise).
func kinesisRequest(c service.Call, tableName, streamArn *string, needArn bool) (service.Table, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, tableName, "tableName")
	if needArn {
		apierr.ARN(&cs, streamArn, "streamArn")
	}
	if err := cs.Err(); err != nil {
		return service.Table{}, err
	}
	if needArn && !validKinesisARN(*streamArn) {
		return service.Table{}, apierr.Validation(apierr.MsgKinesisARNInvalid(*streamArn))
	}
	t, err := c.LookupTable(*tableName)
	if err != nil {
		return service.Table{}, err
	}
	if st := t.Definition().StatusAt(c.Now()); st != "ACTIVE" {
		return service.Table{}, apierr.ResourceInUse(apierr.MsgTableNotActive(*tableName, st))
	}
	return t, nil
}

// validKinesisARN reports whether arn names a Kinesis data stream:
// arn:<partition>:kinesis:<region>:<12-digit account>:stream/<name>.
func validKinesisARN(arn string) bool {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[1] == "" || parts[2] != "kinesis" || parts[3] == "" {
		return false
	}
	if len(parts[4]) != 12 || strings.Trim(parts[4], "0123456789") != "" {
		return false
	}
	name, ok := strings.CutPrefix(parts[5], "stream/")
	return ok && name != "" && len(name) <= 128
}

// precisionOf checks ApproximateCreationDateTimePrecision (nil: none).
func precisionOf(cfg *KinesisStreamingConfiguration, path string) (string, error) {
	if cfg == nil || cfg.ApproximateCreationDateTimePrecision == nil {
		return "", nil
	}
	p := *cfg.ApproximateCreationDateTimePrecision
	if p != "MILLISECOND" && p != "MICROSECOND" {
		var cs apierr.Constraints
		cs.Add(apierr.Quote(p), path, apierr.EnumConstraint("MILLISECOND, MICROSECOND"))
		return "", cs.Err()
	}
	return p, nil
}

// changeKinesisDest is the body of Enable, Disable and Update: the
// checks they share, then change, given a copy of the table's
// destinations, the table, the stream ARN and the precision asked for, returns
// them changed (or the operation's error), inside the change of the
// table's slot.
func changeKinesisDest(c service.Call, tableName, streamArn *string, cfg *KinesisStreamingConfiguration, cfgPath string,
	change func(list []kinesisDest, t service.Table, arn, prec string) ([]kinesisDest, error)) (service.Table, error) {
	t, err := kinesisRequest(c, tableName, streamArn, true)
	if err != nil {
		return service.Table{}, err
	}
	prec, err := precisionOf(cfg, cfgPath+".approximateCreationDateTimePrecision")
	if err != nil {
		return service.Table{}, err
	}
	err = changeSlot(t, kinesisSlot, func(old json.RawMessage) (json.RawMessage, error) {
		list, err := destinationsOf(old)
		if err != nil {
			return nil, err
		}
		if list, err = change(list, t, *streamArn, prec); err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, nil
		}
		return json.Marshal(list)
	})
	return t, err
}

// activeDest returns the index of arn's destination in list, which must
// be ACTIVE at now: AWS's ValidationException otherwise, notActive for
// one in another state, missing for one never attached.
func activeDest(list []kinesisDest, arn string, now time.Time, notActive, missing string) (int, error) {
	i := slices.IndexFunc(list, func(d kinesisDest) bool { return d.StreamArn == arn })
	switch {
	case i < 0:
		return 0, apierr.Validation(missing)
	case list[i].statusAt(now) != destActive:
		return 0, apierr.Validation(notActive)
	}
	return i, nil
}

func enableKinesisDest(c service.Call, in *KinesisStreamingDestinationInput) (*KinesisStreamingDestinationOutput, error) {
	t, err := changeKinesisDest(c, in.TableName, in.StreamArn, in.EnableKinesisStreamingConfiguration, "enableKinesisStreamingConfiguration",
		func(list []kinesisDest, _ service.Table, arn, prec string) ([]kinesisDest, error) {
			// A table has at most one live destination (ENABLING, ACTIVE,
			// UPDATING or DISABLING); DISABLED ones linger, any number,
			// and enabling one again changes it in place (ack-api-quirks
			// DDB-TABLE-268, verified against AWS 2026-10-09; it
			// supersedes DDB-TABLE-299's "one destination per table").
			for _, d := range list {
				if d.statusAt(c.Now()) != destDisabled {
					return nil, apierr.Validation(apierr.MsgKinesisEnableNotDisabled)
				}
			}
			d := kinesisDest{StreamArn: arn, Status: destEnabling, Until: c.TransientUntil(), Next: destActive, Precision: prec}
			if i := slices.IndexFunc(list, func(x kinesisDest) bool { return x.StreamArn == arn }); i >= 0 {
				list[i] = d
				return list, nil
			}
			return append([]kinesisDest{d}, list...), nil // newest first, as AWS lists them
		})
	if err != nil {
		return nil, err
	}
	// AWS echoes the configuration, an empty one when none was sent.
	cfg := in.EnableKinesisStreamingConfiguration
	if cfg == nil {
		cfg = &KinesisStreamingConfiguration{}
	}
	return &KinesisStreamingDestinationOutput{TableName: t.Info().Name, StreamArn: *in.StreamArn, DestinationStatus: destEnabling,
		EnableKinesisStreamingConfiguration: cfg}, nil
}

func disableKinesisDest(c service.Call, in *KinesisStreamingDestinationInput) (*KinesisStreamingDestinationOutput, error) {
	t, err := changeKinesisDest(c, in.TableName, in.StreamArn, in.EnableKinesisStreamingConfiguration, "enableKinesisStreamingConfiguration",
		func(list []kinesisDest, _ service.Table, arn, _ string) ([]kinesisDest, error) {
			i, err := activeDest(list, arn, c.Now(), apierr.MsgKinesisDisableNotActive, apierr.MsgKinesisDisableNotActive)
			if err != nil {
				return nil, err
			}
			list[i].Status, list[i].Until, list[i].Next = destDisabling, c.TransientUntil(), destDisabled
			return list, nil
		})
	if err != nil {
		return nil, err
	}
	return &KinesisStreamingDestinationOutput{TableName: t.Info().Name, StreamArn: *in.StreamArn, DestinationStatus: destDisabling,
		EnableKinesisStreamingConfiguration: in.EnableKinesisStreamingConfiguration}, nil
}

func updateKinesisDest(c service.Call, in *UpdateKinesisStreamingDestinationInput) (*UpdateKinesisStreamingDestinationOutput, error) {
	t, err := changeKinesisDest(c, in.TableName, in.StreamArn, in.UpdateKinesisStreamingConfiguration, "updateKinesisStreamingConfiguration",
		func(list []kinesisDest, t service.Table, arn, prec string) ([]kinesisDest, error) {
			if prec == "" {
				return nil, apierr.Validation(apierr.MsgKinesisUpdateEmpty)
			}
			i, err := activeDest(list, arn, c.Now(), apierr.MsgKinesisUpdateNotActive, apierr.MsgKinesisNoDestination(arn, t.Info().Name))
			if err != nil {
				return nil, err
			}
			if cmp.Or(list[i].Precision, "MILLISECOND") == prec {
				return nil, apierr.Validation(apierr.MsgKinesisPrecisionSame(prec, t.Info().ID, arn))
			}
			list[i].Status, list[i].Until, list[i].Next, list[i].Precision = destUpdating, c.TransientUntil(), destActive, prec
			return list, nil
		})
	if err != nil {
		return nil, err
	}
	return &UpdateKinesisStreamingDestinationOutput{TableName: t.Info().Name, StreamArn: *in.StreamArn, DestinationStatus: destUpdating,
		UpdateKinesisStreamingConfiguration: in.UpdateKinesisStreamingConfiguration}, nil
}

func describeKinesisDest(c service.Call, in *DescribeKinesisStreamingDestinationInput) (*DescribeKinesisStreamingDestinationOutput, error) {
	var cs apierr.Constraints
	apierr.NotNull(&cs, in.TableName, "tableName")
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := c.LookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	list, err := destinationsOf(t.Definition().Slot(kinesisSlot))
	if err != nil {
		return nil, err
	}
	out := &DescribeKinesisStreamingDestinationOutput{TableName: t.Info().Name, KinesisDataStreamDestinations: []KinesisDataStreamDestination{}}
	for _, d := range list {
		out.KinesisDataStreamDestinations = append(out.KinesisDataStreamDestinations, KinesisDataStreamDestination{
			StreamArn: d.StreamArn, DestinationStatus: d.statusAt(c.Now()),
			ApproximateCreationDateTimePrecision: d.Precision, // absent until set, as on AWS
		})
	}
	return out, nil
}
