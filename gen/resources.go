package gen

import (
	"fmt"

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
		}
	})
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
