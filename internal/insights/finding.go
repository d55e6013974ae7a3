package insights

// Finding is one thing a design says about itself (Design.Check) or the
// traffic says about the design (the Finding kinds, design_check.go). It
// is this package's own, so that the design readers need nothing above
// internal/: the access-pattern report carries each as the public
// report.Finding, a type of the same fields, so that the conversion
// report.Finding(f) compiles only while the two stay alike.
type Finding struct {
	Kind    string `json:"kind"`
	Table   string `json:"table"`
	Index   string `json:"index,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	Entity  string `json:"entity,omitempty"`
	Detail  string `json:"detail"`
}
