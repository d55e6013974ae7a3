package service

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// mergeAttrDefs folds the AttributeDefinitions of an UpdateTable that
// creates a GSI keyed on newKeys into the table's. A name the table does
// not define yet is added. A name it defines keeps its type: AWS accepts
// and ignores a conflicting type for an attribute the new index does not
// key on (a characterisation of AWS for the ACK DynamoDB controller,
// DDB-TABLE-162: "the table key declared as N while it is S ... accepted
// and DescribeTable AttributeDefinitions is unchanged afterwards"), and
// refuses one the new index keys on, since it would index one attribute
// under two types (ScyllaDB's test run against AWS,
// test_gsi_key_type_conflict_on_update).
func (m *tableMeta) mergeAttrDefs(defs []AttributeDefinition, newKeys []KeySchemaElement, tableKeys []tablespec.KeyElem) ([]tablespec.AttrDef, error) {
	attrDefs := slices.Clone(m.attrDefs)
	for _, d := range defs {
		name, typ := *d.AttributeName, *d.AttributeType
		i := slices.IndexFunc(attrDefs, func(a tablespec.AttrDef) bool { return a.Name == name })
		if i < 0 {
			attrDefs = append(attrDefs, tablespec.AttrDef{Name: name, Type: typ})
			continue
		}
		old := attrDefs[i].Type
		if old == typ {
			continue
		}
		k := slices.IndexFunc(newKeys, func(e KeySchemaElement) bool { return e.AttributeName != nil && *e.AttributeName == name })
		if k < 0 {
			continue // not a key of the new index: the stored type stays
		}
		role := m.existingKeyType(name, tableKeys)
		if role == "" {
			attrDefs[i].Type = typ // a definition no key uses any more
			continue
		}
		return nil, apierr.Validation(apierr.MsgAttributeRedefined(
			apierr.SchemaElement(name, old, role),
			apierr.SchemaElement(name, typ, tablespec.Deref(newKeys[k].KeyType))))
	}
	return attrDefs, nil
}

// existingKeyType is HASH or RANGE: the role of the attribute called name
// in the table's key or, failing that, in the first index that keys on it
// ("" when no key uses it).
func (m *tableMeta) existingKeyType(name string, tableKeys []tablespec.KeyElem) string {
	schemas := [][]tablespec.KeyElem{tableKeys}
	for _, x := range slices.Concat(m.lsis, m.gsis) {
		schemas = append(schemas, x.KeySchema)
	}
	for _, ks := range schemas {
		for _, e := range ks {
			if e.Name == name {
				return e.KeyType
			}
		}
	}
	return ""
}
