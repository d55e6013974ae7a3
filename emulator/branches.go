package emulator

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/gorilla/mux"
)

// Branches: a namespace forked from another in O(1), for test suites
// that seed a base once and give every test its own copy of it
// (service/branches.go says what a branch holds and costs). A request
// reaches a branch when its credential's access key id is the branch's
// name, in any region, with or without -sharedDb.
//
//	POST   /dynamoemu/branches         {"base":"AKID/us-east-1","name":"t1"}
//	                                   → {"name":"t1","namespace":"branch:t1","base":"AKID/us-east-1","accessKey":"t1"}
//	GET    /dynamoemu/branches         {"branches":[{...}]}
//	DELETE /dynamoemu/branches/{name} {"deleted":"t1"}
//
// base is a namespace ID as GET /dynamoemu/namespaces lists them
// ("AKID/region", "shared", or another branch's "branch:NAME"); with
// -sharedDb it may be left out. Behind the admin guard like the other
// admin endpoints (admin_guard.go); bad input answers 400 with a
// ValidationException body.

// AdminBranchesPath is the admin endpoint of branches.
const AdminBranchesPath = "/dynamoemu/branches"

// Branch is one branch: its name, which is also the access key id whose
// requests reach it, its namespace ID and the namespace it was forked
// from.
type Branch struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Base      string `json:"base"`
	AccessKey string `json:"accessKey"`
}

// Errors of Fork and DropBranch.
var (
	ErrNoBranch     = service.ErrNoBranch
	ErrBranchExists = service.ErrBranchExists
	ErrBranchName   = service.ErrBranchName
	ErrNoNamespace  = service.ErrNoNamespace
)

// Fork makes branch name of namespace base (its ID: "AKID/region", or
// "shared" with Options.SharedDB), holding base's tables and items as
// they are now. It costs O(1) per table and index whatever they hold;
// afterwards each side copies what it changes, and neither sees the
// other's writes. Requests signed with access key id name reach it.
// Branches are kept in memory only, even with persistence.
func (e *Emulator) Fork(base, name string) (Branch, error) {
	b, err := e.svc.Fork(base, name)
	if err != nil {
		return Branch{}, err
	}
	return branchOf(b), nil
}

// DropBranch drops branch name and everything only it holds.
func (e *Emulator) DropBranch(name string) error { return e.svc.DropBranch(name) }

// Branches lists the branches by name.
func (e *Emulator) Branches() []Branch {
	out := []Branch{}
	for _, b := range e.svc.Branches() {
		out = append(out, branchOf(b))
	}
	return out
}

func branchOf(b service.BranchInfo) Branch {
	return Branch{Name: b.Name, Namespace: b.ID, Base: b.Base, AccessKey: b.Name}
}

func (e *Emulator) branchRoutes(r *mux.Router) {
	r.Methods(http.MethodPost).Path(AdminBranchesPath).HandlerFunc(e.serveBranchFork)
	r.Methods(http.MethodGet).Path(AdminBranchesPath).HandlerFunc(e.serveBranchList)
	r.Methods(http.MethodDelete).Path(AdminBranchesPath + "/{name}").HandlerFunc(e.serveBranchDrop)
}

func (e *Emulator) serveBranchFork(w http.ResponseWriter, r *http.Request) {
	e.cors.apply(w, r)
	body, err := readFaultsBody(r)
	if err != nil {
		writeAdminError(w, err)
		return
	}
	var req struct {
		Base string `json:"base"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeAdminError(w, errors.New("the body is a JSON object {\"base\": namespace ID, \"name\": branch name}"))
		return
	}
	if req.Base == "" && e.opts.SharedDB {
		req.Base = "shared"
	}
	b, err := e.Fork(req.Base, req.Name)
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdminJSON(w, b)
}

func (e *Emulator) serveBranchList(w http.ResponseWriter, r *http.Request) {
	e.cors.apply(w, r)
	writeAdminJSON(w, map[string]any{"branches": e.Branches()})
}

func (e *Emulator) serveBranchDrop(w http.ResponseWriter, r *http.Request) {
	e.cors.apply(w, r)
	name := mux.Vars(r)["name"]
	if err := e.DropBranch(name); err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdminJSON(w, map[string]string{"deleted": name})
}

// NamespaceID returns the ID of the namespace that requests signed with
// accessKey in region reach: "shared" with Options.SharedDB, a branch's
// "branch:NAME" when accessKey names one, "AKID/region" otherwise.
func (e *Emulator) NamespaceID(accessKey, region string) string {
	return e.svc.NamespaceID(accessKey, region)
}
