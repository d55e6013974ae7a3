package emulator

import (
	"net/http"

	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	"github.com/gorilla/mux"
)

// router builds the router of the emulator's own paths (/dynamoemu/...):
// the conventions report, preflights, the admin endpoints and the console.
// Every other path is the edge's (edge.go). New does not call it:
// gorilla/mux compiles a regular expression per route, which start-up
// need not pay (the first request that needs it builds it, once).
func (e *Emulator) router() *mux.Router {
	r := mux.NewRouter()
	a := e.admin()
	r.Methods(http.MethodGet).Path(adminpath.Conventions).HandlerFunc(a.ServeConventions)
	r.Methods(http.MethodOptions).HandlerFunc(e.servePreflight)
	e.adminRoutes(r, a)
	e.consoleRoutes(r)
	r.NotFoundHandler = http.HandlerFunc(e.serveNotFound)
	r.MethodNotAllowedHandler = http.HandlerFunc(e.serveNotFound)
	return r
}
