package iac

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// The resource types read.
const (
	typeTable       = "AWS::DynamoDB::Table"
	typeGlobalTable = "AWS::DynamoDB::GlobalTable"
	typeSimpleTable = "AWS::Serverless::SimpleTable" // SAM's
)

// isTableType reports whether typ is a table type read.
func isTableType(typ string) bool {
	return typ == typeTable || typ == typeGlobalTable || typ == typeSimpleTable
}

// table reads one resource's Properties into a Table.
func (r *resolver) table(id, typ string, raw map[string]any) (Table, error) {
	at := "Resources." + id + ".Properties"
	rv, err := r.resolve(raw, at)
	if err != nil {
		return Table{}, err
	}
	props, _ := rv.(map[string]any)
	t := Table{LogicalID: id, Name: r.tableNames[id], Create: map[string]any{"TableName": r.tableNames[id]}}
	switch typ {
	case typeGlobalTable:
		err = r.globalTable(&t, props, at)
	case typeSimpleTable:
		err = simpleTable(&t, props, at)
	default:
		err = r.plainTable(&t, props, at)
	}
	return t, err
}

// unknownProp is the error of a property the emulator cannot take.
func unknownProp(at, name string) error {
	return fmt.Errorf("%s.%s: a property the emulator cannot take exactly (not read)", at, name)
}

func (r *resolver) plainTable(t *Table, props map[string]any, at string) error {
	for _, name := range sortedKeys(props) {
		v := props[name]
		switch name {
		case "TableName":
		case "AttributeDefinitions", "KeySchema", "BillingMode", "TableClass", "DeletionProtectionEnabled", "Tags",
			"OnDemandThroughput", "WarmThroughput":
			t.Create[name] = v
		case "ProvisionedThroughput":
			pt, err := capacity(v, at+"."+name, "ReadCapacityUnits", "WriteCapacityUnits")
			if err != nil {
				return err
			}
			t.Create[name] = pt
		case "GlobalSecondaryIndexes", "LocalSecondaryIndexes":
			idx, err := indexes(v, at+"."+name, name == "GlobalSecondaryIndexes")
			if err != nil {
				return err
			}
			t.Create[name] = idx
		case "StreamSpecification":
			s, err := stream(v, at+"."+name)
			if err != nil {
				return err
			}
			t.Create[name] = s
		case "SSESpecification":
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.%s: not a mapping", at, name)
			}
			sse := map[string]any{}
			for _, k := range sortedKeys(m) {
				switch k {
				case "SSEEnabled":
					sse["Enabled"] = m[k]
				case "SSEType", "KMSMasterKeyId":
					sse[k] = m[k]
				default:
					return unknownProp(at+"."+name, k)
				}
			}
			t.Create[name] = sse
		case "ResourcePolicy":
			m, _ := v.(map[string]any)
			doc, ok := m["PolicyDocument"]
			if !ok || len(m) != 1 {
				return fmt.Errorf("%s.%s: want {PolicyDocument: ...}", at, name)
			}
			b, err := json.Marshal(doc)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", at, name, err)
			}
			t.Create[name] = string(b)
		case "TimeToLiveSpecification":
			if err := t.ttl(v, at+"."+name); err != nil {
				return err
			}
		case "PointInTimeRecoverySpecification":
			if err := t.pitr(v, at+"."+name); err != nil {
				return err
			}
		case "ContributorInsightsSpecification":
			if err := t.insights(v, at+"."+name); err != nil {
				return err
			}
		default: // KinesisStreamSpecification, ImportSourceSpecification, and names unknown
			return unknownProp(at, name)
		}
	}
	return nil
}

func (t *Table) ttl(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: not a mapping", at)
	}
	for k := range m {
		if k != "AttributeName" && k != "Enabled" {
			return unknownProp(at, k)
		}
	}
	if on, _ := m["Enabled"].(bool); on {
		t.TTL = map[string]any{"AttributeName": m["AttributeName"], "Enabled": true}
	}
	return nil
}

func (t *Table) pitr(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: not a mapping", at)
	}
	for k := range m {
		if k != "PointInTimeRecoveryEnabled" && k != "RecoveryPeriodInDays" {
			return unknownProp(at, k)
		}
	}
	if on, _ := m["PointInTimeRecoveryEnabled"].(bool); on {
		t.PITR = m
	}
	return nil
}

func (t *Table) insights(v any, at string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: not a mapping", at)
	}
	for k := range m {
		if k != "Enabled" {
			return unknownProp(at, k)
		}
	}
	if on, _ := m["Enabled"].(bool); on {
		t.ContributorInsights = "ENABLE"
	}
	return nil
}

// stream turns CloudFormation's {StreamViewType} into CreateTable's
// {StreamEnabled, StreamViewType}.
func stream(v any, at string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a mapping", at)
	}
	for k := range m {
		if k != "StreamViewType" {
			return nil, unknownProp(at, k)
		}
	}
	return map[string]any{"StreamEnabled": true, "StreamViewType": m["StreamViewType"]}, nil
}

// capacity reads a throughput mapping whose numbers may be strings
// (CloudFormation takes "5" for 5).
func capacity(v any, at string, names ...string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a mapping", at)
	}
	out := map[string]any{}
	for k, x := range m {
		known := false
		for _, n := range names {
			known = known || n == k
		}
		if !known {
			return nil, unknownProp(at, k)
		}
		n, err := toInt(x)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", at, k, err)
		}
		out[k] = n
	}
	return out, nil
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case uint64:
		return int64(x), nil
	case float64:
		return int64(x), nil
	case string:
		return strconv.ParseInt(x, 10, 64)
	}
	return 0, fmt.Errorf("%v: not a number", v)
}

// indexes reads GlobalSecondaryIndexes or LocalSecondaryIndexes.
func indexes(v any, at string, global bool) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a list", at)
	}
	out := make([]any, 0, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		iat := fmt.Sprintf("%s[%d]", at, i)
		if !ok {
			return nil, fmt.Errorf("%s: not a mapping", iat)
		}
		idx := map[string]any{}
		for _, k := range sortedKeys(m) {
			switch {
			case k == "IndexName" || k == "KeySchema" || k == "Projection":
				idx[k] = m[k]
			case global && (k == "OnDemandThroughput" || k == "WarmThroughput"):
				idx[k] = m[k]
			case global && k == "ProvisionedThroughput":
				pt, err := capacity(m[k], iat+"."+k, "ReadCapacityUnits", "WriteCapacityUnits")
				if err != nil {
					return nil, err
				}
				idx[k] = pt
			default:
				return nil, unknownProp(iat, k)
			}
		}
		out = append(out, idx)
	}
	return out, nil
}

// globalTable reads an AWS::DynamoDB::GlobalTable: the table is its
// replica in Options.Region, the other replicas' regions are listed.
func (r *resolver) globalTable(t *Table, props map[string]any, at string) error {
	here, err := r.localReplica(t, props, at)
	if err != nil {
		return err
	}
	rat := at + ".Replicas[" + r.opts.Region + "]"
	provisioned := props["BillingMode"] == "PROVISIONED"
	if provisioned {
		wcu, err := writeUnits(props["WriteProvisionedThroughputSettings"], at+".WriteProvisionedThroughputSettings")
		if err != nil {
			return err
		}
		rcu, err := readUnits(here["ReadProvisionedThroughputSettings"], rat+".ReadProvisionedThroughputSettings")
		if err != nil {
			return err
		}
		t.Create["ProvisionedThroughput"] = map[string]any{"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu}
	}
	for _, name := range sortedKeys(props) {
		if err := r.globalTableProp(t, name, props[name], here, at, rat, provisioned); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(here) {
		if err := t.replicaProp(name, here[name], rat); err != nil {
			return err
		}
	}
	return nil
}

// localReplica returns the replica of a global table in Options.Region,
// listing the other replicas' regions in t.
func (r *resolver) localReplica(t *Table, props map[string]any, at string) (map[string]any, error) {
	reps, ok := props["Replicas"].([]any)
	if !ok || len(reps) == 0 {
		return nil, fmt.Errorf("%s.Replicas: want a list of replicas", at)
	}
	var here map[string]any
	for i, rep := range reps {
		m, ok := rep.(map[string]any)
		region, _ := m["Region"].(string)
		if !ok || region == "" {
			return nil, fmt.Errorf("%s.Replicas[%d]: want a Region", at, i)
		}
		if region == r.opts.Region {
			here = m
		} else {
			t.Replicas = append(t.Replicas, region)
		}
	}
	if here == nil {
		return nil, fmt.Errorf("%s.Replicas: no replica in %s, the region the tables are made in", at, r.opts.Region)
	}
	return here, nil
}

// globalTableProp reads property name, value v, of a global table at at
// whose local replica here is at rat.
func (r *resolver) globalTableProp(t *Table, name string, v any, here map[string]any, at, rat string, provisioned bool) error {
	switch name {
	case "TableName", "Replicas", "WriteProvisionedThroughputSettings":
	case "AttributeDefinitions", "KeySchema", "BillingMode", "WarmThroughput":
		t.Create[name] = v
	case "WriteOnDemandThroughputSettings":
		m, _ := v.(map[string]any)
		if u, ok := m["MaxWriteRequestUnits"]; ok {
			t.setOnDemand("MaxWriteRequestUnits", u)
		}
	case "LocalSecondaryIndexes":
		idx, err := indexes(v, at+"."+name, false)
		if err != nil {
			return err
		}
		t.Create[name] = idx
	case "GlobalSecondaryIndexes":
		idx, err := r.globalIndexes(v, here, at+"."+name, rat, provisioned)
		if err != nil {
			return err
		}
		t.Create[name] = idx
	case "StreamSpecification":
		s, err := stream(v, at+"."+name)
		if err != nil {
			return err
		}
		t.Create[name] = s
	case "SSESpecification":
		sse, err := globalSSE(v, at+"."+name)
		if err != nil {
			return err
		}
		t.Create[name] = sse
	case "TimeToLiveSpecification":
		return t.ttl(v, at+"."+name)
	default: // GlobalTableWitnesses, MultiRegionConsistency, and names unknown
		return unknownProp(at, name)
	}
	return nil
}

// globalSSE is a global table's SSESpecification as CreateTable's.
func globalSSE(v any, at string) (map[string]any, error) {
	m, _ := v.(map[string]any)
	sse := map[string]any{}
	for _, k := range sortedKeys(m) {
		switch k {
		case "SSEEnabled":
			sse["Enabled"] = m[k]
		case "SSEType":
			sse[k] = m[k]
		default:
			return nil, unknownProp(at, k)
		}
	}
	return sse, nil
}

// replicaProp reads property name, value v, of a global table's local
// replica at rat.
func (t *Table) replicaProp(name string, v any, rat string) error {
	switch name {
	case "Region", "ReadProvisionedThroughputSettings", "GlobalSecondaryIndexes":
	case "TableClass", "DeletionProtectionEnabled", "Tags":
		t.Create[name] = v
	case "ReadOnDemandThroughputSettings":
		m, _ := v.(map[string]any)
		if u, ok := m["MaxReadRequestUnits"]; ok {
			t.setOnDemand("MaxReadRequestUnits", u)
		}
	case "PointInTimeRecoverySpecification":
		return t.pitr(v, rat+"."+name)
	case "ContributorInsightsSpecification":
		return t.insights(v, rat+"."+name)
	case "SSESpecification":
		m, _ := v.(map[string]any)
		sse, _ := t.Create["SSESpecification"].(map[string]any)
		if sse == nil {
			sse = map[string]any{}
			t.Create["SSESpecification"] = sse
		}
		for k, x := range m {
			if k != "KMSMasterKeyId" {
				return unknownProp(rat+"."+name, k)
			}
			sse[k] = x
		}
	default: // KinesisStreamSpecification, ReplicaStreamSpecification, ResourcePolicy, ...
		return unknownProp(rat, name)
	}
	return nil
}

func (t *Table) setOnDemand(k string, v any) {
	od, _ := t.Create["OnDemandThroughput"].(map[string]any)
	if od == nil {
		od = map[string]any{}
		t.Create["OnDemandThroughput"] = od
	}
	od[k] = v
}

// writeUnits is a global table's write capacity: its autoscaling minimum
// (the emulator does not scale).
func writeUnits(v any, at string) (int64, error) {
	m, _ := v.(map[string]any)
	as, _ := m["WriteCapacityAutoScalingSettings"].(map[string]any)
	if as == nil {
		return 0, fmt.Errorf("%s.WriteCapacityAutoScalingSettings: a PROVISIONED global table needs it", at)
	}
	return toInt(as["MinCapacity"])
}

// readUnits is a replica's read capacity: ReadCapacityUnits, or its
// autoscaling minimum.
func readUnits(v any, at string) (int64, error) {
	m, _ := v.(map[string]any)
	if u, ok := m["ReadCapacityUnits"]; ok {
		return toInt(u)
	}
	if as, ok := m["ReadCapacityAutoScalingSettings"].(map[string]any); ok {
		return toInt(as["MinCapacity"])
	}
	return 0, fmt.Errorf("%s: a PROVISIONED global table's replica needs ReadCapacityUnits or ReadCapacityAutoScalingSettings", at)
}

// globalIndexes reads a global table's GSIs, with the read settings of
// the replica here.
func (r *resolver) globalIndexes(v any, here map[string]any, at, rat string, provisioned bool) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a list", at)
	}
	repIdx := map[string]map[string]any{}
	if rl, ok := here["GlobalSecondaryIndexes"].([]any); ok {
		for _, e := range rl {
			if m, ok := e.(map[string]any); ok {
				if n, ok := m["IndexName"].(string); ok {
					repIdx[n] = m
				}
			}
		}
	}
	out := make([]any, 0, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		iat := fmt.Sprintf("%s[%d]", at, i)
		if !ok {
			return nil, fmt.Errorf("%s: not a mapping", iat)
		}
		idx := map[string]any{}
		name, _ := m["IndexName"].(string)
		for _, k := range sortedKeys(m) {
			switch k {
			case "IndexName", "KeySchema", "Projection", "WarmThroughput":
				idx[k] = m[k]
			case "WriteProvisionedThroughputSettings":
			case "WriteOnDemandThroughputSettings":
				if mm, ok := m[k].(map[string]any); ok {
					idx["OnDemandThroughput"] = map[string]any{"MaxWriteRequestUnits": mm["MaxWriteRequestUnits"]}
				}
			default:
				return nil, unknownProp(iat, k)
			}
		}
		if provisioned {
			wcu, err := writeUnits(m["WriteProvisionedThroughputSettings"], iat+".WriteProvisionedThroughputSettings")
			if err != nil {
				return nil, err
			}
			rcu, err := readUnits(repIdx[name]["ReadProvisionedThroughputSettings"], rat+".GlobalSecondaryIndexes["+name+"].ReadProvisionedThroughputSettings")
			if err != nil {
				return nil, err
			}
			idx["ProvisionedThroughput"] = map[string]any{"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu}
		}
		out = append(out, idx)
	}
	return out, nil
}

// simpleTable reads SAM's AWS::Serverless::SimpleTable: a partition key
// (PrimaryKey, default {Name: id, Type: String}), on-demand unless
// ProvisionedThroughput says otherwise, Tags as a map.
func simpleTable(t *Table, props map[string]any, at string) error {
	key, typ := "id", "String"
	for _, name := range sortedKeys(props) {
		v := props[name]
		switch name {
		case "TableName":
		case "PrimaryKey":
			m, _ := v.(map[string]any)
			for k, x := range m {
				switch k {
				case "Name":
					key, _ = x.(string)
				case "Type":
					typ, _ = x.(string)
				default:
					return unknownProp(at+"."+name, k)
				}
			}
		case "ProvisionedThroughput":
			pt, err := capacity(v, at+"."+name, "ReadCapacityUnits", "WriteCapacityUnits")
			if err != nil {
				return err
			}
			t.Create[name] = pt
		case "SSESpecification":
			m, _ := v.(map[string]any)
			for k := range m {
				if k != "SSEEnabled" {
					return unknownProp(at+"."+name, k)
				}
			}
			t.Create[name] = map[string]any{"Enabled": m["SSEEnabled"]}
		case "Tags":
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.Tags: want a mapping of tag names to values", at)
			}
			var tags []any
			for _, k := range sortedKeys(m) {
				tags = append(tags, map[string]any{"Key": k, "Value": scalarString(m[k])})
			}
			t.Create[name] = tags
		default:
			return unknownProp(at, name)
		}
	}
	short := map[string]string{"String": "S", "Number": "N", "Binary": "B"}[typ]
	if short == "" {
		return fmt.Errorf("%s.PrimaryKey.Type %q: want String, Number or Binary", at, typ)
	}
	t.Create["AttributeDefinitions"] = []any{map[string]any{"AttributeName": key, "AttributeType": short}}
	t.Create["KeySchema"] = []any{map[string]any{"AttributeName": key, "KeyType": "HASH"}}
	if t.Create["ProvisionedThroughput"] == nil {
		t.Create["BillingMode"] = "PAY_PER_REQUEST"
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
