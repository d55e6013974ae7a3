package emulator

import (
	"net/http"
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
// Namespaces that hold no table are left out. Behind the admin guard, as
// the other admin endpoints (admin_guard.go); a GET changes nothing.

// AdminNamespacesPath is the admin endpoint that lists the namespaces.
const AdminNamespacesPath = "/dynamoemu/namespaces"

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
		ns := e.svc.Namespace(id)
		if ns == nil {
			continue
		}
		tables := ns.DB().Tables()
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
	e.cors.apply(w, r)
	writeAdminJSON(w, map[string]any{"sharedDb": e.opts.SharedDB, "namespaces": e.namespaceViews()})
}
