package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/dynamoemu/dynamoemu/cmd/internal/mcp"
	"github.com/dynamoemu/dynamoemu/emulator"
)

// -load: a NoSQL Workbench model, AWS's DynamoDB MCP data model, or
// infrastructure code (a CloudFormation/SAM template, cdk.out, a
// serverless.yml) whose tables are made at start. All or nothing: the
// whole load is first made in a scratch in-memory emulator with the same
// namespace rules and conventions (DynamoDB's own checks of every table
// and item, nothing skipped), before the server's emulator opens -dbPath;
// a load that fails there stops the start with nothing made and no file
// written. The tables go where the clients look (loadNamespace), and
// the log says where and how other keys see them.

// localstackNamespace is the namespace of LocalStack's clients: the keys
// and region its ready.d scripts and awslocal use.
const localstackNamespace = "test/us-east-1"

// loadTarget is where -load's tables go.
type loadTarget struct {
	accessKey, region string
	// regionFromFile: a template that names its region (a
	// serverless.yml's provider.region) puts its tables there.
	regionFromFile bool
	shared         bool   // -sharedDb: every key and region sees them
	why            string // how it was chosen, for the log
	flag           string // the flag that names another: -loadNamespace, or dynamoemu mcp's -namespace
	flagGiven      bool   // flag chose it: the log does not suggest it again
}

// loadTargetOf is where the server's -load puts its tables: anywhere
// with -sharedDb (every namespace is the one database); else
// -loadNamespace; else LocalStack's test/us-east-1 with -localstack (its
// scripts' and awslocal's keys), or -mcpNamespace (local/us-east-1 by
// default, where the MCP tools look), the region being a template's own
// when it names one.
func loadTargetOf(c config) loadTarget {
	ns, why := c.mcp.namespace, "-mcpNamespace"
	switch {
	case c.sharedDB:
		why = "-sharedDb"
	case c.mcp.loadNamespace != "":
		ns, why = c.mcp.loadNamespace, "-loadNamespace"
	case c.localstack.on:
		ns, why = localstackNamespace, "-localstack: LocalStack's keys"
	}
	ak, region, _ := strings.Cut(ns, "/")
	return loadTarget{accessKey: ak, region: region, shared: c.sharedDB,
		regionFromFile: !c.sharedDB && c.mcp.loadNamespace == "", why: why, flag: "-loadNamespace", flagGiven: c.mcp.loadNamespace != ""}
}

// logWhere logs where file's n tables are (namespace ns) and how
// clients with other keys see them.
func (t loadTarget) logWhere(log *slog.Logger, file string, n int, ns string) {
	if n == 0 {
		log.Info("-load " + file + ": no DynamoDB tables in it")
		return
	}
	if t.shared {
		log.Info(fmt.Sprintf("-load %s: %s in the shared database (-sharedDb): every access key and region sees them", file, tables(n)))
		return
	}
	ak, region, _ := strings.Cut(ns, "/")
	other := fmt.Sprintf("or start with %s YOURKEY/YOURREGION (LocalStack's: %s), ", t.flag, localstackNamespace)
	if t.flagGiven {
		other = "or start "
	}
	log.Info(fmt.Sprintf("-load %s: %s in namespace %s: clients signing with access key %s in region %s see them, other keys and regions do not", file, tables(n), ns, ak, region),
		"namespace", ns, "from", t.why,
		"otherKeys", fmt.Sprintf("use access key %s and region %s (AWS_ACCESS_KEY_ID=%s AWS_REGION=%s AWS_DEFAULT_REGION=%s), "+
			"%swith -sharedDb (one database for every key and region)", ak, region, ak, region, region, other))
}

// tables is "1 table" or "N tables".
func tables(n int) string {
	if n == 1 {
		return "1 table"
	}
	return fmt.Sprintf("%d tables", n)
}

// loadPlan is -load, read and checked.
type loadPlan struct {
	path      string
	files     []loadFile
	templates bool // infrastructure code, not a model
	target    loadTarget
}

// loadFile is a file -load names.
type loadFile struct {
	path string
	src  []byte
}

// planLoad reads -load (path; "" : none) and makes it in a scratch
// in-memory emulator like opts' (its namespaces and conventions): a load
// that fails there is an error before anything is made for real.
func planLoad(ctx context.Context, path string, target loadTarget, opts emulator.Options) (*loadPlan, error) {
	if path == "" {
		return nil, nil
	}
	files, err := loadFiles(path)
	if err != nil {
		return nil, err
	}
	p := &loadPlan{path: path, files: files, target: target}
	if p.templates = len(files) > 1; !p.templates {
		if p.templates, err = isTemplateFile(files[0]); err != nil {
			return nil, err
		}
	}
	scratch, err := emulator.New(emulator.Options{SharedDB: opts.SharedDB, Conventions: opts.Conventions,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return nil, err
	}
	defer scratch.Close()
	if err := p.run(ctx, scratch, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// isTemplateFile tells infrastructure code from a model (JSON), or says
// why f is neither: a YAML error with its line and column, a JSON error
// with its line and column.
func isTemplateFile(f loadFile) (bool, error) {
	kind, yerr := mcp.TemplateKind(f.src)
	if kind != "" {
		return true, nil
	}
	if trimmed := bytes.TrimSpace(f.src); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		if err := jsonError(f.src); err != nil {
			return false, fmt.Errorf("-load %s: %w", f.path, err)
		}
		return false, nil // a model: its loader says what is wrong with it
	}
	if yerr != nil {
		return false, fmt.Errorf("-load %s: %w", f.path, yerr)
	}
	return false, fmt.Errorf("-load %s: YAML, but neither a CloudFormation or SAM template (no Resources) nor a serverless.yml "+
		"(no service with resources or provider); a NoSQL Workbench model or AWS's data model is JSON", f.path)
}

// jsonError is src's JSON syntax error with its line and column, or nil.
func jsonError(src []byte) error {
	var v any
	err := json.Unmarshal(src, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return nil
	}
	before := src[:min(int(se.Offset), len(src))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n') - 1 // Offset counts the byte at fault
	return fmt.Errorf("not JSON: line %d, column %d: %v", line, col, err)
}

// loadFiles reads -load's file, or, for a directory (cdk.out), its
// *.template.json files.
func loadFiles(path string) ([]loadFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("-load: %w", err)
	}
	paths := []string{path}
	if st.IsDir() {
		if paths, err = filepath.Glob(filepath.Join(path, "*.template.json")); err != nil || len(paths) == 0 {
			return nil, fmt.Errorf("-load %s: a directory without *.template.json files (cdk synth writes them in cdk.out)", path)
		}
	}
	var out []loadFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("-load: %w", err)
		}
		out = append(out, loadFile{p, src})
	}
	return out, nil
}

// run makes the plan's tables in emu, logging what it did (log nil:
// silent). Tables made before a failure are deleted again.
func (p *loadPlan) run(ctx context.Context, emu *emulator.Emulator, log *slog.Logger) error {
	if p == nil {
		return nil
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if !p.templates {
		src := p.files[0].src
		loaded, err := mcp.LoadModel(ctx, emu, p.target.accessKey, p.target.region, src)
		if err != nil {
			return fmt.Errorf("-load %s: %w", p.path, err)
		}
		ns := p.target.accessKey + "/" + p.target.region
		for _, t := range loaded {
			log.Info("loaded "+p.path, "table", t.Table, "created", t.Created, "items", t.Items, "namespace", ns, "note", t.Note)
		}
		p.target.logWhere(log, p.path, len(loaded), ns)
		return nil
	}
	var made []mcp.TemplateLoad // the files loaded so far
	for _, f := range p.files {
		region := p.target.region
		if p.target.regionFromFile {
			region = "" // the template's, else us-east-1 (below)
		}
		got, err := mcp.LoadTemplate(ctx, emu, p.target.accessKey, region, f.src, mcp.TemplateOptions{Getenv: os.Getenv, Dir: filepath.Dir(f.path)})
		if err != nil {
			for _, l := range made {
				if uerr := l.Undo(ctx, emu); uerr != nil {
					err = fmt.Errorf("%w (and deleting the tables of an earlier file again: %v)", err, uerr)
				}
			}
			return fmt.Errorf("-load %s: %w", f.path, err)
		}
		made = append(made, got)
		if got.Dotenv != "" {
			log.Info("-load "+f.path+": ${env:...} read from "+got.Dotenv+" (useDotenv)", "file", got.Dotenv, "for", f.path)
		}
		for _, t := range got.Tables {
			log.Info("loaded "+f.path, "table", t.Table, "created", t.Created, "namespace", got.Namespace, "note", t.Note)
		}
		if len(got.Skipped) > 0 {
			log.Info("skipped in "+f.path+": not DynamoDB tables", "resources", strings.Join(got.Skipped, ", "))
		}
		for name, v := range got.Outputs {
			log.Info("output of "+f.path, "name", name, "value", v)
		}
		for _, u := range got.Unresolved {
			log.Info("output of "+f.path+" left out", "why", u)
		}
		p.target.logWhere(log, f.path, len(got.Tables), got.Namespace)
	}
	return nil
}

// logScopes says, for the files that name tables without making them
// (-conventions, -design, -serverless), which namespaces they apply to:
// every one, a table being matched by its name whatever key and region
// made it.
func logScopes(c config, log *slog.Logger) {
	if c.conventions != "" {
		log.Info("-conventions " + c.conventions + ": the tables it names (and those tagged dynamoemu:conventions) are checked in every namespace, whatever access key and region made them")
	}
	if c.faults.design != "" {
		log.Info("-design " + c.faults.design + ": the traffic of every namespace is checked against it (the access-pattern report, per namespace)")
	}
	if c.serverless != "" {
		log.Info("-serverless " + c.serverless + ": each stream event follows the latest table of its name in any namespace, whatever access key and region made it")
	}
}
