package lint

import "github.com/sentinelgen/sentinelgen/annotate"

// registrations gathers the resource names the packages' own Go files
// register by hand (runtime.NewResource("name", ...)) and the entrance
// names they set (runtime.WithEntrance(ctx, "name")), as annotate found
// them in the files it checked. Only literal names can be seen. The
// generated file is not among them: it registers exactly the declared
// resources.
func registrations(pkgs []*annotate.Package) (resources, entrances map[string]bool) {
	resources, entrances = map[string]bool{}, map[string]bool{}
	for _, pkg := range pkgs {
		for _, r := range pkg.Registrations {
			switch r.Kind {
			case annotate.RegisterResource:
				resources[r.Name] = true
			case annotate.SetEntrance:
				entrances[r.Name] = true
			}
		}
	}
	return resources, entrances
}
