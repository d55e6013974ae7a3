package adminhttp

import (
	"net/http"

	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// ServeFaultsGet answers GET of the fault rules' path: the rules, as
// faults.Config's JSON.
func (a *Admin) ServeFaultsGet(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	seed, rules := a.Faults.Rules()
	b, err := faults.MarshalConfig(faults.Config{Seed: seed, Rules: rules})
	if err != nil {
		WriteError(w, err)
		return
	}
	Write(w, http.StatusOK, string(b))
}

// ServeFaultsPut answers PUT of the fault rules' path: the rules
// replaced, then answered as GET answers them.
func (a *Admin) ServeFaultsPut(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	body, err := ReadBody(r, MaxFileBody)
	if err == nil {
		var c faults.Config
		if c, err = faults.ParseConfig(body); err == nil {
			err = a.Faults.SetRules(c.Seed, c.Rules)
		}
	}
	if err != nil {
		WriteError(w, err)
		return
	}
	a.ServeFaultsGet(w, r)
}

// ServeFaultsDelete answers DELETE of the fault rules' path: every rule
// removed.
func (a *Admin) ServeFaultsDelete(w http.ResponseWriter, r *http.Request) {
	a.act(w, r, a.Faults.Clear, `{"cleared":true}`)
}

// ServeFaultStats answers GET of the fault statistics' path.
func (a *Admin) ServeFaultStats(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	WriteJSON(w, a.Faults.Stats())
}
