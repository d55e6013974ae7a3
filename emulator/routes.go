package emulator

import (
	"net/http"

	"github.com/gorilla/mux"
)

// router builds the router of everything but the API's POST /, which the
// handler serves itself: health, the conventions report, preflights, the
// admin endpoints and the console. New does not call it: gorilla/mux
// compiles a regular expression per route, which start-up need not pay
// (the first request that is not an API call builds it, once).
func (e *Emulator) router() *mux.Router {
	r := mux.NewRouter()
	r.Methods(http.MethodPost).Path("/").HandlerFunc(e.serveOp)
	r.Methods(http.MethodGet).Path("/").HandlerFunc(e.serveHealth)
	r.Methods(http.MethodGet).Path(ConventionsPath).HandlerFunc(e.serveConventions)
	r.Methods(http.MethodOptions).HandlerFunc(e.servePreflight)
	e.adminRoutes(r)
	e.consoleRoutes(r)
	r.NotFoundHandler = http.HandlerFunc(e.serveOther)
	r.MethodNotAllowedHandler = http.HandlerFunc(e.serveOther)
	return r
}
