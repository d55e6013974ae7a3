// Package conventionscheck is the conventions check of a DynamoDB
// endpoint ("dynamoemu check", a subcommand of the server's binary): Run scans the tables of
// any endpoint (dynamoemu, DynamoDB Local, AWS) that the configuration
// (or their tags) names and lists the items that break the
// mbc-cqrs-serverless conventions (package conventions). It talks to the
// endpoint with a client of its own (client.go, signing.go): four operations
// of DynamoDB's JSON protocol, without the AWS SDK, so that the server's
// binary carries the check ("dynamoemu check") at little cost.
package conventionscheck

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The check: "dynamoemu check --endpoint URL --config FILE"
// scans the tables of any DynamoDB endpoint (the emulator, DynamoDB Local,
// AWS) that the configuration (or their tags) names, and lists the items
// that break the conventions, as the emulator would have reported them had
// they been written to it. It fails (exit status 1) when a violation has
// error severity, or any violation with --fail-on-warn; warnings alone
// leave it at 0. Anything else that stops it (bad flags or
// configuration, an endpoint it cannot read, an empty namespace, tables
// of which none opts in) is exit status 2: a check that checked nothing
// does not pass.

// The check's exit statuses.
const (
	ExitViolations = 1 // violations that fail the check
	ExitError      = 2 // the check could not run
)

// ErrViolations is returned when the check found violations that fail it
// (exit status 1).
var ErrViolations = errors.New("conventions violations found")

// ExitCode is the exit status of a check that ended with err: 0 for none
// (or a help request), ExitViolations for violations that fail it,
// ExitError for anything else.
func ExitCode(err error) int {
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrViolations):
		return ExitViolations
	default:
		return ExitError
	}
}

// loadConventions reads the --config file; "" means none.
func loadConventions(file string) (*conventions.Config, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	cfg, err := conventions.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("--config %s: %w", file, err)
	}
	return &cfg, nil
}

// Run runs the command line args ("check --endpoint URL --config FILE
// [table ...]"), its report on stdout; it returns ErrViolations when the
// check fails.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usage = "usage: dynamoemu check --endpoint URL --config FILE [--fail-on-warn] [--region R] [--accessKey K --secretKey S] [table ...]"
	if len(args) == 0 || args[0] != "check" {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("dynamoemu check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("endpoint", "", "DynamoDB endpoint URL (empty: AWS's, from the environment)")
	file := fs.String("config", "", "conventions configuration file (JSON, as for -conventions)")
	region := fs.String("region", "us-east-1", "region")
	accessKey := fs.String("accessKey", "", "access key id (empty: the environment's; with --endpoint and no environment credentials, \"dynamoemu\")")
	secretKey := fs.String("secretKey", "dynamoemu", "secret access key, with --accessKey")
	failOnWarn := fs.Bool("fail-on-warn", false, "exit with status 1 for warnings too (default: errors only)")
	fs.Usage = func() { fmt.Fprintln(stderr, usage); fs.PrintDefaults() }
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg, err := loadConventions(*file)
	if err != nil {
		return err
	}
	if cfg == nil {
		cfg = &conventions.Config{} // tags only
	}
	rules, err := conventions.New(*cfg)
	if err != nil {
		return err
	}
	db, err := newClient(*endpoint, *region, *accessKey, *secretKey, os.Getenv)
	if err != nil {
		return err
	}
	names := fs.Args()
	if len(names) == 0 {
		if names, err = db.listTables(ctx); err != nil {
			return err
		}
		if len(names) == 0 {
			return emptyNamespace(db, *endpoint)
		}
	}
	var errs, warns, checked int
	for _, name := range names {
		vs, ok, err := checkTable(ctx, db, rules, name, stdout)
		if err != nil {
			return fmt.Errorf("table %s: %w", name, err)
		}
		if ok {
			checked++
		}
		for _, v := range vs {
			if v.Severity == conventions.SeverityWarn {
				warns++
			} else {
				errs++
			}
		}
	}
	if checked == 0 {
		return nothingChecked(*endpoint, *file, names)
	}
	skipped := ""
	if n := len(names) - checked; n > 0 {
		skipped = fmt.Sprintf(" (%d not opted in)", n)
	}
	fmt.Fprintf(stdout, "%d violations in %d tables%s: %d errors, %d warnings\n", errs+warns, checked, skipped, errs, warns)
	if errs > 0 || (*failOnWarn && warns > 0) {
		return ErrViolations
	}
	return nil
}

// ErrNothingChecked is the error of a check in which no table opted in:
// no configuration entry matched any table and no table carried the
// conventions tag, which would pass as "0 violations" (exit status 2).
var ErrNothingChecked = errors.New("nothing checked")

// nothingChecked is the error of a check whose tables all went
// unchecked: it says why (no --config and no tagged table, or a
// configuration matching none of them) and names the tables.
func nothingChecked(endpoint, file string, names []string) error {
	if endpoint == "" {
		endpoint = "AWS"
	}
	why := "no --config was given and no table has the " + conventions.TagRoles + " tag"
	if file != "" {
		why = "the configuration " + file + " matches none of them and none has the " + conventions.TagRoles + " tag"
	}
	shown := names
	if len(shown) > 10 {
		shown = shown[:10]
	}
	list := strings.Join(shown, ", ")
	if len(shown) < len(names) {
		list += fmt.Sprintf(", and %d more", len(names)-len(shown))
	}
	return fmt.Errorf("%w: none of the %d tables of %s opts in to the conventions (%s): %s", ErrNothingChecked, len(names), endpoint, why, list)
}

// emptyNamespace is the error of a check whose endpoint lists no table:
// most often credentials or a region that open a namespace other than the
// one holding the tables, which would pass as "0 violations in 0 tables".
func emptyNamespace(db *client, endpoint string) error {
	key, region := db.creds.accessKey, db.region
	if endpoint == "" {
		endpoint = "AWS"
	}
	return fmt.Errorf("nothing checked: %s lists no table for access key %s in region %s (an empty namespace; "+
		"DynamoDB Local and dynamoemu keep one database per access key and region unless started with -sharedDb: "+
		"pass the --accessKey and --region the application uses, or name the tables)", endpoint, key, region)
}

// checkTable checks one table's key schema and every item, printing a line
// per violation; it returns the violations it printed and whether the
// table opted in (one that does not is skipped).
func checkTable(ctx context.Context, db *client, rules *conventions.Rules, name string, out io.Writer) ([]conventions.Violation, bool, error) {
	desc, err := db.describeTable(ctx, name)
	if err != nil {
		return nil, false, err
	}
	tags := db.tags(ctx, desc.TableArn) // an endpoint without tagging checks by the configuration alone
	p, ok, err := rules.Lookup(name, tags)
	if err != nil {
		return nil, false, err
	}
	if !ok || !p.Active() {
		return nil, false, nil
	}
	ks := keySchemaOf(desc)
	vs := rules.CheckTable(name, p, conventions.KeySchema{
		Partition: conventions.KeyAttribute{Name: ks.Partition.Name, Type: ks.Partition.Kind.String()},
		Sort:      conventions.KeyAttribute{Name: ks.Sort.Name, Type: ks.Sort.Kind.String()}})

	items, err := db.scanAll(ctx, name)
	if err != nil {
		return nil, false, err
	}
	vs = append(vs, checkItems(rules, name, p, ks, indexKeys(desc), items)...)
	for _, v := range vs {
		fmt.Fprintf(out, "%s\t%s\t%s\t%s\t%s\n", v.Table, v.Rule, v.Severity, v.Key, v.Message)
	}
	return vs, true, nil
}

// indexKeys are the partition key attributes of a described table's
// global secondary indexes (rule B16).
func indexKeys(desc shapes.TableDescription) []conventions.IndexKey {
	var out []conventions.IndexKey
	for _, g := range desc.GlobalSecondaryIndexes {
		for _, e := range g.KeySchema {
			if e.KeyType == "HASH" {
				out = append(out, conventions.IndexKey{Index: g.IndexName, Attr: e.AttributeName})
				break
			}
		}
	}
	return out
}

// checkItems runs the rules on a table's stored items as if each were
// written now: a command row as a guarded create (so B5 asks for its
// previous version among the items), a sequence row as an update of
// itself, and a latest item together with the item it copies (rule L1;
// other items are not asked for a latest item of their own). The tenants
// known to rule B16 are those of the table's partition keys.
func checkItems(rules *conventions.Rules, name string, p conventions.Policy, ks storage.KeySchema, ixs []conventions.IndexKey, items []storage.Item) []conventions.Violation {
	keys := make(map[conventions.Key]storage.Item, len(items))
	tenants := map[string]bool{}
	for _, it := range items {
		k := keyOf(ks, it)
		keys[k] = it
		if tenant, err := p.TenantOf(k.PK); err == nil {
			tenants[strings.ToLower(tenant)] = true
		}
	}
	exists := func(pk, sk string) bool { _, ok := keys[conventions.Key{PK: pk, SK: sk}]; return ok }
	known := func(tenant string) bool { return tenants[strings.ToLower(tenant)] }
	plain := p
	plain.Latest = ""
	names := conventions.Key{PK: ks.Partition.Name, SK: ks.Sort.Name}
	write := func(k conventions.Key, it storage.Item) conventions.Write {
		w := conventions.Write{Table: name, Policy: plain, Op: conventions.OpPut, Key: k, Names: names,
			New: it, NotExistsCondition: true, Exists: exists, IndexKeys: ixs, KnownTenant: known}
		if p.Roles.Has(conventions.RoleSequences) {
			w.Op, w.Old = conventions.OpUpdate, it
		}
		return w
	}
	var vs []conventions.Violation
	for _, it := range items {
		k := keyOf(ks, it)
		if p.Latest == "" || !isLatest(p, k) {
			vs = append(vs, rules.CheckWrite(write(k, it))...)
			continue
		}
		lw := write(k, it)
		lw.Policy = p
		// A stored latest item whose version is gone is judged as if
		// written by the conditional way, whose condition passed: it
		// points at a version the table does not hold.
		lw.Condition = pointerName(p) + " = :seen"
		lw.Get = func(pk, sk string) storage.Item { return keys[conventions.Key{PK: pk, SK: sk}] }
		pair := []conventions.Write{lw}
		if ptr, ok := it[pointerName(p)]; ok && ptr.Kind() == storage.KindS {
			tk := conventions.Key{PK: k.PK, SK: ptr.Str()}
			if k.SK == "" {
				tk = conventions.Key{PK: ptr.Str()}
			}
			if target, ok := keys[tk]; ok {
				tw := write(tk, target)
				tw.Policy, tw.Old = p, target // stored: not a new item
				pair = append(pair, tw)
			}
		}
		for _, v := range rules.CheckTransaction(pair) {
			if v.Rule == "L1" {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

func isLatest(p conventions.Policy, k conventions.Key) bool {
	if k.SK == "" {
		return k.PK == p.Latest
	}
	return k.SK == p.Latest
}

func pointerName(p conventions.Policy) string {
	if p.LatestPointer == "" {
		return "actualVersion"
	}
	return p.LatestPointer
}

func keyOf(ks storage.KeySchema, it storage.Item) conventions.Key {
	k := conventions.Key{PK: it[ks.Partition.Name].Str()}
	if ks.HasSort() {
		k.SK = it[ks.Sort.Name].Str()
	}
	return k
}

// keySchemaOf is a described table's key schema.
func keySchemaOf(t shapes.TableDescription) storage.KeySchema {
	kind := func(name string) storage.Kind {
		i := slices.IndexFunc(t.AttributeDefinitions, func(d shapes.AttributeDefinition[string]) bool { return d.AttributeName == name })
		if i < 0 {
			return storage.KindS
		}
		return storage.KindFromString(t.AttributeDefinitions[i].AttributeType)
	}
	var ks storage.KeySchema
	for _, e := range t.KeySchema {
		a := storage.KeyAttr{Name: e.AttributeName}
		a.Kind = kind(a.Name)
		if e.KeyType == "HASH" {
			ks.Partition = a
		} else {
			ks.Sort = a
		}
	}
	return ks
}
