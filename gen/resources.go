package gen

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// resourceVars declares one package-level *runtime.Resource per resource.
// Creating them at package initialisation is what keeps a guarded call free
// of lookups: the wrapper holds a direct pointer to its statistics and rules.
func (g *fileGen) resourceVars() {
	g.doc("The resources of this package, created once when it is initialised.")
	g.file.Var().DefsFunc(func(defs *jen.Group) {
		for _, r := range g.pkg.Resources {
			args := append([]jen.Code{jen.Lit(r.Name)}, resourceOptions(r)...)
			defs.Commentf("%s is resource %q, guarding %s.", g.resVar[r], r.Name, guardedName(r))
			defs.Id(g.resVar[r]).Op("=").Qual(runtimePath, "NewResource").Call(args...)
			if v := g.retry[r]; v != "" {
				defs.Commentf("%s retries %s: %s, %s, within %s of its calls.",
					v, guardedName(r), retryCount(r.Retries), backoffText(r.RetryBackoff), percent(r.RetryBudget))
				defs.Id(v).Op("=").Qual(runtimePath, "NewRetryPolicy").Call(
					jen.Id(g.resVar[r]), jen.Lit(r.Retries), durationCode(r.RetryBackoff), jen.Lit(r.RetryBudget))
			}
		}
	})
}

// durationCode writes d as a constant expression in its largest exact unit,
// e.g. 800 * time.Millisecond.
func durationCode(d time.Duration) jen.Code {
	units := []struct {
		name string
		d    time.Duration
	}{{"Hour", time.Hour}, {"Minute", time.Minute}, {"Second", time.Second},
		{"Millisecond", time.Millisecond}, {"Microsecond", time.Microsecond}}
	if d == 0 {
		return jen.Lit(0)
	}
	for _, u := range units {
		if d%u.d == 0 {
			n := int64(d / u.d)
			if n == 1 {
				return jen.Qual(timePath, u.name)
			}
			return jen.Lit(int(n)).Op("*").Qual(timePath, u.name)
		}
	}
	return jen.Qual(timePath, "Duration").Call(jen.Lit(int64(d)))
}

// retryCount says how many retries a policy allows.
func retryCount(n int) string {
	if n == 1 {
		return "at most 1 retry"
	}
	return fmt.Sprintf("at most %d retries", n)
}

// backoffText says how long a policy waits before its first retry.
func backoffText(d time.Duration) string {
	if d == 0 {
		return "without a wait"
	}
	return "the first after up to " + d.String() + ", doubling"
}

// percent writes a share as a percentage, e.g. "10 %".
func percent(f float64) string {
	return strconv.FormatFloat(f*100, 'f', -1, 64) + " %"
}

// resourceOptions writes the options that differ from the runtime's defaults
// (outbound traffic, common type, no parameter names); defaults are left out
// to keep the line short. The parameters' key kinds are always declared,
// an empty list for a function without parameters after ctx, so that the
// rules package refuses a param-flow rule that could never apply.
func resourceOptions(r *annotate.Resource) []jen.Code {
	var opts []jen.Code
	if r.EntryType == annotate.EntryIn {
		opts = append(opts, jen.Qual(runtimePath, "WithTrafficType").Call(jen.Qual(runtimePath, "TrafficInbound")))
	}
	if r.ResourceType != annotate.ResourceCommon {
		opts = append(opts, jen.Qual(runtimePath, "WithResourceType").Call(jen.Qual(runtimePath, resourceTypeName(r.ResourceType))))
	}
	if names := paramNamesOption(r); names != nil {
		opts = append(opts, names)
	}
	return append(opts, paramKeysOption(r))
}

// resourceTypeName is the runtime constant for a directive's resourceType.
func resourceTypeName(t annotate.ResourceType) string {
	switch t {
	case annotate.ResourceWeb:
		return "ResourceTypeWeb"
	case annotate.ResourceRPC:
		return "ResourceTypeRPC"
	case annotate.ResourceGateway:
		return "ResourceTypeGateway"
	case annotate.ResourceDB:
		return "ResourceTypeDB"
	case annotate.ResourceCache:
		return "ResourceTypeCache"
	case annotate.ResourceMQ:
		return "ResourceTypeMQ"
	}
	return "ResourceTypeCommon"
}

// guardedName names the annotated function or method for comments.
func guardedName(r *annotate.Resource) string {
	if r.Func.Recv == nil {
		return r.Func.Name
	}
	return fmt.Sprintf("(%s).%s", receiverString(r.Func.Recv), r.Func.Name)
}
