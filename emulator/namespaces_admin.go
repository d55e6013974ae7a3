package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The namespaces that hold data, for the console's namespace switch: an
// application that signs with another access key or region than the one
// the console uses keeps its tables in another namespace, which the
// console lists instead of showing "no tables".
//
//	GET /dynamoemu/namespaces   {"sharedDb":false,"namespaces":[{"namespace":"AKID/us-east-1",
//	                            "accessKey":"AKID","region":"us-east-1","tables":2,"items":10}]}
//
//	GET /dynamoemu/tables?namespace=AKID/us-east-1[&start=NAME][&limit=N]
//	                            {"tables":[TableDescription...],"lastEvaluatedTableName":"NAME"}
//
// Namespaces that hold no table are left out. The tables endpoint gives
// a page of a namespace's tables (limit 1 to 100, default 100, in name
// order after start) described as DescribeTable describes them, so the
// console's table list costs one request a page, not one per table;
// "shared" names the namespace of -sharedDb. Behind the admin guard, as
// the other admin endpoints (httpedge/adminguard.go); a GET changes nothing.

// AdminNamespacesPath is the admin endpoint that lists the namespaces.
const AdminNamespacesPath = "/dynamoemu/namespaces"

// AdminTablesPath is the admin endpoint that describes a page of a
// namespace's tables.
const AdminTablesPath = "/dynamoemu/tables"

// maxTablesPage is the most tables GET AdminTablesPath describes at once
// (ListTables' most).
const maxTablesPage = 100

// namespaceView is one namespace in GET AdminNamespacesPath's answer.
type namespaceView struct {
	Namespace string `json:"namespace"`           // its ID: "<access key>/<region>", "shared" or a branch of it, "shared/NAME"
	AccessKey string `json:"accessKey,omitempty"` // "" for the shared namespace and its branches
	Region    string `json:"region,omitempty"`
	Tables    int    `json:"tables"`
	Items     int    `json:"items"`
}

// namespaceViews returns the namespaces that hold at least one table, by ID.
func (e *Emulator) namespaceViews() []namespaceView {
	out := []namespaceView{}
	for _, id := range e.svc.NamespaceIDs() {
		var tables []interface{ ItemCount() int }
		if sp := e.svc.Forked(id); sp != nil { // a branch not used yet is not made
			for _, t := range sp.Tables() {
				tables = append(tables, t)
			}
		} else if ns := e.svc.Namespace(id); ns != nil {
			for _, t := range ns.DB().Tables() {
				tables = append(tables, t)
			}
		}
		if len(tables) == 0 {
			continue
		}
		v := namespaceView{Namespace: id, Tables: len(tables)}
		if key, region, ok := strings.Cut(id, "/"); ok && !e.opts.SharedDB { // with SharedDB, "shared/NAME" is a branch: no key reaches it
			v.AccessKey, v.Region = key, region
		}
		for _, t := range tables {
			v.Items += t.ItemCount()
		}
		out = append(out, v)
	}
	return out
}

func (e *Emulator) serveNamespaces(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	writeAdminJSON(w, map[string]any{"sharedDb": e.opts.SharedDB, "namespaces": e.namespaceViews()})
}

func (e *Emulator) serveTables(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	q := r.URL.Query()
	id := q.Get("namespace")
	key, region, ok := strings.Cut(id, "/")
	switch {
	case e.opts.SharedDB && id == "shared":
		key, region = "shared", "shared" // every key reaches the one namespace
	case !ok || key == "" || region == "":
		writeAdminError(w, fmt.Errorf("namespace %q is not an ID as GET %s lists them (ACCESSKEY/REGION)", id, AdminNamespacesPath))
		return
	}
	limit := maxTablesPage
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxTablesPage {
			writeAdminError(w, fmt.Errorf("limit %q is not a number from 1 to %d", s, maxTablesPage))
			return
		}
		limit = n
	}
	tables, last := e.svc.TableDescriptions(key, region, q.Get("start"), limit)
	out := map[string]any{"tables": tables}
	if last != "" {
		out["lastEvaluatedTableName"] = last
	}
	writeAdminJSON(w, out)
}
