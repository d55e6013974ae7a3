package insights

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// memberCase is a design whose members are wrong and the whole error it
// gives.
type memberCase struct{ name, src, want string }

// requireMemberErrors: each case is a *DesignError, never a panic, and
// its message names the member at fault by its path.
func requireMemberErrors(t *testing.T, cases []memberCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { _, err = ParseDesign([]byte(tc.src)) })
			var de *DesignError
			require.ErrorAs(t, err, &de)
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestOneTableSchemaMembers: a OneTable schema's members are typed and,
// where the specification gives a fixed set, closed; a member given
// twice is an error at any level.
func TestOneTableSchemaMembers(t *testing.T) {
	const ot = `{"indexes":{"primary":{"hash":"pk"}},"extensions":{"dynamoemu":{"table":"T"}},`
	requireMemberErrors(t, []memberCase{
		{"version a number", ot + `"version":1}`, "onetable: version: want a string, found a number"},
		{"items an object", ot + `"items":{}}`, "onetable: items: want an array, found an object"},
		{"an index's hash an array", `{"indexes":{"primary":{"hash":["pk"]}}}`, "onetable: indexes.primary.hash: want a string, found an array"},
		{"follow a number", `{"indexes":{"primary":{"hash":"pk","follow":1}}}`, "onetable: indexes.primary.follow: want true or false, found a number"},
		{"a param of the wrong type", ot + `"params":{"isoDates":"yes"}}`, "onetable: params.isoDates: want true or false, found a string"},
		{"a model an array", ot + `"models":{"M":[]}}`, "onetable: models.M: want an object, found an array"},
		{"a field a string", ot + `"models":{"M":{"pk":"string"}}}`, "onetable: models.M.pk: want an object, found a string"},
		{"a field's map a number", ot + `"models":{"M":{"pk":{"map":7}}}}`, "onetable: models.M.pk.map: want a string, found a number"},
		{"required not a boolean", ot + `"models":{"M":{"pk":{"value":"m","required":"yes"}}}}`, "onetable: models.M.pk.required: want true or false, found a string"},
		{"a query's hash a number", ot + `"queries":{"q":{"hash":5}}}`, "onetable: queries.q.hash: want a string, found a number"},
		{"a sort neither a string nor two", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"hash":"m","operation":"Equal","sort":7}}}`,
			"onetable: queries.q.sort: want a string, found a number"},
		{"extensions an array", `{"indexes":{"primary":{"hash":"pk"}},"extensions":[]}`, "onetable: extensions: want an object, found an array"},
		{"the table a number", `{"indexes":{"primary":{"hash":"pk"}},"extensions":{"dynamoemu":{"table":5}}}`, "onetable: extensions.dynamoemu.table: want a string, found a number"},
		{"an index member in another case", `{"indexes":{"primary":{"Hash":"pk"}}}`,
			"onetable: indexes.primary.Hash: unknown member (known here: hash, sort, project, type, follow)"},
		{"a query member in another case", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"hash":"m","Model":"M"}}}`,
			"onetable: queries.q.Model: unknown member (known here: name, hash, sort, index, limit, model, operation, schema, type, filters)"},
		{"an index twice", `{"indexes":{"primary":{"hash":"pk"},"primary":{"hash":"pk"}}}`, "onetable: indexes.primary: the member appears twice"},
		{"an index's hash twice", `{"indexes":{"primary":{"hash":"pk","hash":"sk"}}}`, "onetable: indexes.primary.hash: the member appears twice"},
		{"a model twice", ot + `"models":{"M":{"pk":{"value":"m"}},"M":{}}}`, "onetable: models.M: the member appears twice"},
		{"a field twice", ot + `"models":{"M":{"pk":{"value":"m"},"pk":{"value":"n"}}}}`, "onetable: models.M.pk: the member appears twice"},
		{"a query twice", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"hash":"m"},"q":{"hash":"m"}}}`, "onetable: queries.q: the member appears twice"},
		{"another tool's extension twice", `{"indexes":{"primary":{"hash":"pk"}},"extensions":{"x":1,"x":2}}`, "onetable: extensions.x: the member appears twice"},
	})
}

// TestOneTableOtherExtensions: extensions is open: another tool's
// members, of any type, are skipped.
func TestOneTableOtherExtensions(t *testing.T) {
	d, err := ParseDesign([]byte(`{"indexes":{"primary":{"hash":"pk"}},"extensions":{"other":[1],"Dynamoemu":{"table":"X"},"dynamoemu":{"table":"T"}}}`))
	require.NoError(t, err)
	require.Equal(t, "T", d.Tables[0].Name)
}

// TestElectroDBEntityMembers: an ElectroDB entity's members are typed
// and closed, as its documentation's types are; a member given twice is
// an error at any level.
func TestElectroDBEntityMembers(t *testing.T) {
	const m = `"model":{"entity":"post","version":"1","service":"blog"}`
	requireMemberErrors(t, []memberCase{
		{"an entity name a number", `{"model":{"entity":7,"version":"1","service":"blog"},"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: model.entity: want a string, found a number"},
		{"attributes an array", `{` + m + `,"attributes":[],"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: attributes: want an object, found an array"},
		{"an index name a number", `{` + m + `,"indexes":{"x":{"index":5,"pk":{"field":"pk"}}}}`, "electrodb: indexes.x.index: want a string, found a number"},
		{"a key a string", `{` + m + `,"indexes":{"x":{"pk":"pk"}}}`, "electrodb: indexes.x.pk: want an object, found a string"},
		{"composite a string", `{` + m + `,"indexes":{"x":{"pk":{"field":"pk","composite":"id"}}}}`, "electrodb: indexes.x.pk.composite: want an array of strings, found a string"},
		{"casing a boolean", `{` + m + `,"indexes":{"x":{"pk":{"field":"pk","casing":true}}}}`, "electrodb: indexes.x.pk.casing: want a string, found a boolean"},
		{"a collection a number", `{` + m + `,"indexes":{"x":{"collection":5,"pk":{"field":"pk"}}}}`, "electrodb: indexes.x.collection: want a string, found a number"},
		{"an empty list of collections", `{` + m + `,"indexes":{"x":{"collection":[],"pk":{"field":"pk"}}}}`, "electrodb: indexes.x.collection: want a string, found an array"},
		{"cast a number in the second entity", `[{` + m + `,"indexes":{"x":{"pk":{"field":"pk"}}}},{"model":{"entity":"b","version":"1","service":"s"},"indexes":{"x":{"pk":{"field":"pk","cast":1}}}}]`,
			"electrodb: [1].indexes.x.pk.cast: want a string, found a number"},
		{"an entity not an object", `[1]`, "electrodb: [0]: want an object, found a number"},
		{"an entity member in another case", `{` + m + `,"Attributes":{},"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: Attributes: unknown member (known here: model, attributes, indexes, filters)"},
		{"a model member in another case", `{"model":{"entity":"post","version":"1","service":"blog","Service":"x"},"indexes":{"x":{"pk":{"field":"pk"}}}}`,
			"electrodb: model.Service: unknown member (known here: entity, version, service)"},
		{"an access pattern member in another case", `{` + m + `,"indexes":{"x":{"pk":{"field":"pk"},"Index":"g"}}}`,
			"electrodb: indexes.x.Index: unknown member (known here: index, collection, type, pk, sk, scope, condition)"},
		{"a key member in another case", `{` + m + `,"indexes":{"x":{"pk":{"Field":"pk"}}}}`,
			"electrodb: indexes.x.pk.Field: unknown member (known here: field, composite, template, casing, cast, facets)"},
		{"an access pattern twice", `{` + m + `,"indexes":{"x":{"pk":{"field":"pk"}},"x":{"pk":{"field":"pk"}}}}`, "electrodb: indexes.x: the member appears twice"},
		{"an attribute twice", `{` + m + `,"attributes":{"id":{},"id":{}},"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: attributes.id: the member appears twice"},
		{"a key's field twice", `{` + m + `,"indexes":{"x":{"pk":{"field":"pk","field":"p2"}}}}`, "electrodb: indexes.x.pk.field: the member appears twice"},
		{"a model's entity twice", `{"model":{"entity":"post","entity":"p","version":"1","service":"blog"},"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: model.entity: the member appears twice"},
		{"an entity twice in the table", `[{` + m + `,"indexes":{"x":{"pk":{"field":"pk"}}}},{` + m + `,"indexes":{"x":{"pk":{"field":"pk"}}}}]`, `electrodb: [1].model.entity: entity "post" twice`},
		{"no version", `{"model":{"entity":"post","service":"blog"},"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: model.version: missing or empty"},
		{"a model null", `{"model":null,"indexes":{"x":{"pk":{"field":"pk"}}}}`, "electrodb: model: want an object, found null"},
	})
}
