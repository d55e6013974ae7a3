package adminhttp

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gorilla/mux"
)

// The emulator's branches over HTTP:
//
//	POST   /dynamoemu/branches        {"base":"AKID/us-east-1","name":"t1"}
//	                                  → {"name":"t1","namespace":"t1/us-east-1","base":"AKID/us-east-1","accessKey":"t1"}
//	GET    /dynamoemu/branches        {"branches":[{...}]}
//	DELETE /dynamoemu/branches/{name} {"deleted":"t1"}
//	GET    /dynamoemu/branches/{name}/diff  the branch against its base now:
//	                                  {"branch","namespace","base","tables":[...]}, each table as a
//	                                  snapshot's diff gives it (diff.go), ?limit=N items a table
//
// base is a namespace ID as the namespaces endpoint lists them; bad input
// answers 400 with a ValidationException body.

// branchDiff is a branch's diff: what the branch holds that its base
// does not, table by table ("added" is in the branch only).
type branchDiff struct {
	Branch    string      `json:"branch"`
	Namespace string      `json:"namespace"`
	Base      string      `json:"base"`
	Tables    []tableDiff `json:"tables"`
}

// ServeBranchFork answers POST of the branches path: a branch made.
func (a *Admin) ServeBranchFork(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	body, err := ReadBody(r, MaxFileBody)
	if err != nil {
		WriteError(w, err)
		return
	}
	var req struct {
		Base string `json:"base"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		WriteError(w, errors.New(`the body is a JSON object {"base": namespace ID, "name": branch name}`))
		return
	}
	b, err := a.Answers.Fork(req.Base, req.Name)
	if err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, b)
}

// ServeBranchList answers GET of the branches path.
func (a *Admin) ServeBranchList(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	WriteJSON(w, map[string]any{"branches": a.Answers.Branches()})
}

// ServeBranchDrop answers DELETE of a branch's path.
func (a *Admin) ServeBranchDrop(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	name := mux.Vars(r)["name"]
	if err := a.Host.DropBranch(name); err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, map[string]string{"deleted": name})
}

// ServeBranchDiff answers GET of a branch's diff path.
func (a *Admin) ServeBranchDiff(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	limit, err := diffLimit(r.URL.Query().Get("limit"))
	if err != nil {
		WriteError(w, err)
		return
	}
	name := mux.Vars(r)["name"]
	ns, base, err := a.Branch(name)
	if err != nil {
		WriteError(w, err)
		return
	}
	tables := diffTables(a.SnapshotOf(base), a.Svc.Namespace(ns).DB(), limit)
	WriteJSON(w, branchDiff{Branch: name, Namespace: ns, Base: base, Tables: tables})
}
