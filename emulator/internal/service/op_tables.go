package service

import (
	"errors"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The control-plane operations. Tables are ACTIVE as soon as CreateTable
// returns (its answer says CREATING, as AWS's) and gone as soon as
// DeleteTable returns, as in DynamoDB Local.
// With a transient delay (-delayTransientStatuses) they pass through
// CREATING and DELETING for that long, as on AWS (API_CreateTable:
// "CreateTable immediately returns a response with a TableStatus of
// CREATING. After the table is created, DynamoDB sets the TableStatus to
// ACTIVE. You can perform read and write operations only on an ACTIVE
// table"; API_DeleteTable: DELETING until the deletion completes): a
// table CREATING serves no item request (lookupTable) and cannot be
// deleted (ResourceInUseException, as the reference says), a table
// DELETING is described and listed until it is gone
// (table_lookup.go).

func createTable(c *call, in *CreateTableInput) (*CreateTableOutput, error) {
	return createTableFor(c, in, c.svc.cfg.TransientDelay)
}

// createTableFor is CreateTable of a table CREATING for creating (0:
// ACTIVE at once).
func createTableFor(c *call, in *CreateTableInput, creating time.Duration) (*CreateTableOutput, error) {
	def, err := tablespec.ValidateCreateTable(in)
	if err != nil {
		return nil, err
	}
	if def.Throughput != nil {
		if err := tablespec.CheckTableMaxThroughput(def.Throughput.Read, def.Throughput.Write, c.region); err != nil {
			return nil, err
		}
	}
	now := c.now
	if t := c.ns.getTable(def.Name); t != nil && c.creating(t) {
		// A table of that name still CREATING: AWS says so rather than
		// "Table already exists" (DDB-TABLE-005 of the record cited at
		// changeableTable).
		return nil, apierr.ResourceInUse(apierr.MsgTableNotActive(def.Name, "created"))
	}
	if c.deletingAt(def.Name, now) != nil {
		// The name is not free until the deletion completes.
		return nil, apierr.ResourceInUse(apierr.MsgTableExistsPrefix + def.Name)
	}
	t := &table{
		name:      def.Name,
		schema:    def.Schema,
		keySchema: def.KeySchema,
		arn:       c.tableARN(def.Name),
		id:        tablespec.NewUUID(),
		created:   now,
		clock:     c.clock,
	}
	m := tableMeta{
		Status: statusActive,
		Settings: tablespec.Settings{
			Billing:    tablespec.Billing{Mode: def.BillingMode, Reported: def.BillingMode == "PAY_PER_REQUEST"}, // billing_summary.go
			OnDemand:   def.OnDemand,
			Warm:       def.Warm,
			TableClass: def.TableClass,
		},
		DeletionProtection: def.DeletionProtection,
		Tags:               def.Tags,
		Indexes:            tablespec.Indexes{AttrDefs: def.AttrDefs, LSIs: def.LSIs, GSIs: def.GSIs, Vectors: def.Vectors},
	}
	if def.Throughput != nil {
		m.Capacity = *def.Throughput
	}
	if def.BillingMode == "PAY_PER_REQUEST" {
		m.Billing.PayPerRequestSince = now
	}
	if creating > 0 {
		m.ActiveAt = now.Add(creating)
	}
	for _, x := range slices.Concat(m.LSIs, m.GSIs) {
		x.ARN = t.arn + "/index/" + x.Name
	}
	for _, x := range m.Vectors {
		x.ARN = t.arn + "/index/" + x.Name
	}
	var s streamrec.Stream
	if spec := def.Stream; spec != nil && *spec.StreamEnabled {
		m.Stream = spec
		s = t.registerStream(c, &m, *spec.StreamViewType, "")
	}
	m.SSE = tablespec.DescribeSSE(def.SSE, c.region, c.account)
	t.meta.Store(&m)
	done, err := c.checkDefinition(t, DefinitionCreated, tagDescs(m.Tags))
	if err != nil {
		c.forgetStream(s)
		return nil, err
	}
	done()
	if err := c.ns.createTable(t, &m, s); err != nil {
		if t.data == nil { // not created
			c.forgetStream(s)
		}
		return nil, err
	}
	return &CreateTableOutput{TableDescription: tablespec.CreatedDescription(t.describe(), in)}, nil
}

// forgetStream unregisters s (zero: none), the stream of a table that
// CreateTable did not make visible.
func (c *call) forgetStream(s streamrec.Stream) {
	if !s.IsZero() {
		c.ns.kept().streams.Remove(s)
	}
}

func describeTable(c *call, in *DescribeTableInput) (*DescribeTableOutput, error) {
	t, err := c.controlPlaneTable(in.TableName)
	if err != nil {
		if d := c.deletingAfter(err, in.TableName); d != nil {
			return &DescribeTableOutput{Table: d.describe()}, nil
		}
		return nil, err
	}
	return &DescribeTableOutput{Table: t.describe()}, nil
}

// controlPlaneTable resolves the TableName of DescribeTable, DeleteTable
// and UpdateTable; their not-found message names the table.
func (c *call) controlPlaneTable(name *string) (*table, error) {
	if name == nil {
		return nil, apierr.Validation(apierr.MsgTableNameRequired)
	}
	return c.lookupTableMsg(*name, apierr.MsgTableNotFound(*name))
}

// changeableTable is controlPlaneTable for an operation that changes
// the table (UpdateTable, DeleteTable): a table CREATING or DELETING is
// ResourceInUseException "Attempt to change a resource which is still in
// use: Table is being created: <name>" (or "deleted").
//
// Public records of AWS's answers, probed against AWS in October 2026
// (github.com/aws-controllers-k8s/dynamodb-controller,
// docs/api-quirks/table.md: DDB-TABLE-001, DDB-TABLE-006, DDB-TABLE-008):
// while CREATING, UpdateTable and DeleteTable are refused with the
// "being created" message; while DELETING, a second DeleteTable is
// refused with "Table is being deleted: <name>" until the table is gone
// (then ResourceNotFoundException), and UpdateTable is refused too (the
// record gives no message for it; the same form is used). API_DeleteTable
// says a DeleteTable of a DELETING table returns no error; the newer
// record, of AWS's answers, is followed.
func (c *call) changeableTable(name *string) (*table, error) {
	t, err := c.controlPlaneTable(name)
	if err != nil {
		if d := c.deletingAfter(err, name); d != nil {
			return nil, apierr.ResourceInUse(apierr.MsgTableNotActive(d.name, "deleted"))
		}
		return nil, err
	}
	if c.creating(t) {
		return nil, apierr.ResourceInUse(apierr.MsgTableNotActive(t.name, "created"))
	}
	return t, nil
}

// creating reports whether t is still CREATING.
func (c *call) creating(t *table) bool {
	m := t.meta.Load()
	return !m.ActiveAt.IsZero() && m.StatusAt(c.now) == statusCreating
}

func deleteTable(c *call, in *DeleteTableInput) (*DeleteTableOutput, error) {
	t, err := c.changeableTable(in.TableName)
	if err != nil {
		return nil, err
	}
	for _, h := range c.svc.seams.hooks { // the features' refusals (feature_lifecycle.go)
		if h.CheckDrop == nil {
			continue
		}
		if err := h.CheckDrop(Call{c: c}, Table{t: t}); err != nil {
			return nil, err
		}
	}
	// One change of the definition: the status, the table out of the
	// catalog and its stream stopped, so an UpdateTable that found the
	// table before cannot start a stream on it afterwards (it sees
	// DELETING under t.mu and refuses). Its record is the table's drop
	// (changeMeta).
	err = t.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		if m.DeletionProtection {
			return nil, apierr.Validation(apierr.MsgDeletionProtected)
		}
		if m.Status == statusDeleting {
			// A concurrent DeleteTable won.
			return nil, apierr.ResourceNotFound(apierr.MsgTableNotFound(t.name))
		}
		m.Status = statusDeleting
		return func(recorded bool) error {
			if recorded {
				if d := c.svc.cfg.TransientDelay; d > 0 {
					t.ns.retireTable(t, c.now, c.now.Add(d))
				} else {
					t.ns.removeTable(t)
				}
				t.stopStreamLocked(c.now)             // readable for its retention, as on AWS
				for _, h := range c.svc.seams.hooks { // the features and stages (feature_lifecycle.go)
					if h.Dropped != nil {
						h.Dropped(Dropped{t: t, m: m, now: c.now})
					}
				}
			}
			return nil
		}, nil
	})
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return nil, err
	}
	if c.svc.cfg.TableDropped != nil {
		c.svc.cfg.TableDropped(t.data.SizeBytes())
	}
	if err != nil {
		return nil, err
	}
	return &DeleteTableOutput{TableDescription: deletedDescription(t.describe())}, nil
}

// deletedDescription is DeleteTable's answer: the description without
// what AWS leaves out of it, the key schema, the attribute definitions,
// the creation time and the secondary indexes (ScyllaDB's AWS-verified
// test_table.py, test_delete_table_description and
// test_delete_table_description_with_si).
func deletedDescription(d *TableDescription) *TableDescription {
	d.AttributeDefinitions, d.KeySchema = nil, nil
	d.CreationDateTime = tablespec.EpochTime{}
	d.LocalSecondaryIndexes, d.GlobalSecondaryIndexes = nil, nil
	d.WarmThroughput = nil // not in AWS's answer (localstack's AWS-validated snapshot, warm.go)
	return d
}
