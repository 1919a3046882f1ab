package baselines

import "github.com/doctrust/doctrust/engine/baseline"

// BuiltIn returns the public-specimen profiles shipped with the service.
// None is shipped yet: building them needs several public specimens of one
// real issuer's output, and the corpus holds none (docs/baselines.md).
func BuiltIn() []*baseline.Profile { return nil }
