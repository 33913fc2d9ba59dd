// Package lintplugin is sentinelgen's golangci-lint v2 module plugin: it
// registers the linter "sentinel", which runs annotate.Analyzer, the
// generator's checks and the stale-file check, with its suggested fixes
// (golangci-lint run --fix applies them).
//
// Build a golangci-lint that contains it with golangci-lint custom and a
// .custom-gcl.yml naming this module (see the example in this directory),
// then enable it in .golangci.yml:
//
//	linters:
//	  enable:
//	    - sentinel
//	  settings:
//	    custom:
//	      sentinel:
//	        type: module
//	        description: sentinelgen directives and generated files
//
// It is a module of its own so that the main module does not depend on
// golangci-lint's plugin API.
package lintplugin

import (
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// Name is the linter's name in .golangci.yml.
const Name = "sentinel"

func init() { register.Plugin(Name, New) }

// New returns the plugin. It takes no settings: the checks are the
// generator's, which have none either, so any setting is refused rather
// than silently ignored.
func New(settings any) (register.LinterPlugin, error) {
	if _, err := register.DecodeSettings[struct{}](settings); err != nil {
		return nil, err
	}
	return plugin{}, nil
}

type plugin struct{}

// BuildAnalyzers returns the one Analyzer.
func (plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{annotate.Analyzer}, nil
}

// GetLoadMode asks for type information: every check needs the types of
// the handlers. (golangci-lint --fast-only therefore leaves it out.)
func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
