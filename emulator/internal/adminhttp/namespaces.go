package adminhttp

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// maxTablesPage is the most tables the tables endpoint describes at once
// (ListTables' most).
const maxTablesPage = 100

// NamespaceView is one namespace in the namespaces endpoint's answer.
type NamespaceView struct {
	Namespace string `json:"namespace"`           // its ID: "<access key>/<region>", "shared" or a branch of it, "shared/NAME"
	AccessKey string `json:"accessKey,omitempty"` // "" for the shared namespace and its branches
	Region    string `json:"region,omitempty"`
	Tables    int    `json:"tables"`
	Items     int    `json:"items"`
}

// NamespaceViews returns svc's namespaces that hold at least one table,
// by ID; sharedDB says the emulator runs with -sharedDb.
func NamespaceViews(svc *service.Service, sharedDB bool) []NamespaceView {
	out := []NamespaceView{}
	for _, id := range svc.NamespaceIDs() {
		var tables []interface{ ItemCount() int }
		if sp := svc.Forked(id); sp != nil { // a branch not changed yet: read from its snapshot, left sharing its catalog
			for _, t := range sp.Tables() {
				tables = append(tables, t)
			}
		} else if ns := svc.Namespace(id); ns != nil {
			for _, t := range ns.DB().Tables() {
				tables = append(tables, t)
			}
		}
		if len(tables) == 0 {
			continue
		}
		v := NamespaceView{Namespace: id, Tables: len(tables)}
		if key, region, ok := strings.Cut(id, "/"); ok && !sharedDB { // with SharedDB, "shared/NAME" is a branch: no key reaches it
			v.AccessKey, v.Region = key, region
		}
		for _, t := range tables {
			v.Items += t.ItemCount()
		}
		out = append(out, v)
	}
	return out
}

// ServeNamespaces answers GET of the namespaces endpoint.
func (a *Admin) ServeNamespaces(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	WriteJSON(w, map[string]any{"sharedDb": a.SharedDB, "namespaces": NamespaceViews(a.Svc, a.SharedDB)})
}

// ServeTables answers GET of the tables endpoint: a page of a
// namespace's tables, described.
func (a *Admin) ServeTables(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	q := r.URL.Query()
	id := q.Get("namespace")
	key, region, ok := strings.Cut(id, "/")
	switch {
	case a.SharedDB && id == "shared":
		key, region = "shared", "shared" // every key reaches the one namespace
	case !ok || key == "" || region == "":
		WriteError(w, fmt.Errorf("namespace %q is not an ID as GET %s lists them (ACCESSKEY/REGION)", id, a.Paths.Namespaces))
		return
	}
	limit := maxTablesPage
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxTablesPage {
			WriteError(w, fmt.Errorf("limit %q is not a number from 1 to %d", s, maxTablesPage))
			return
		}
		limit = n
	}
	tables, last := a.Svc.TableDescriptions(key, region, q.Get("start"), limit)
	out := map[string]any{"tables": tables}
	if last != "" {
		out["lastEvaluatedTableName"] = last
	}
	WriteJSON(w, out)
}
