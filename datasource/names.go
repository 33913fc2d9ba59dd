package datasource

import (
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
)

// nameSuffixes are the suffixes Sentinel's conventions put after the
// application's name to name the document of each kind: its dashboard's
// Nacos and Apollo rule publishers use them for dataIds (the hot-parameter
// rules end in "-param-rules", not "-param-flow-rules").
var nameSuffixes = map[rules.Kind]string{
	rules.KindFlow:        "-flow-rules",
	rules.KindDegrade:     "-degrade-rules",
	rules.KindParamFlow:   "-param-rules",
	rules.KindSystem:      "-system-rules",
	rules.KindAuthority:   "-authority-rules",
	rules.KindGatewayFlow: "-gw-flow-rules",
	rules.KindAPIGroup:    "-gw-api-group-rules",
}

// DocumentKinds are the rule kinds a configuration store keeps one document
// each of (a Nacos dataId, a Redis key), in the order sources read them.
func DocumentKinds() []rules.Kind {
	return []rules.Kind{rules.KindFlow, rules.KindDegrade, rules.KindParamFlow, rules.KindSystem,
		rules.KindAuthority, rules.KindGatewayFlow, rules.KindAPIGroup}
}

// DocumentName is the name Sentinel's conventions give the document that
// holds the rules of kind for app: app + "-flow-rules", "-degrade-rules",
// "-param-rules", "-system-rules", "-authority-rules", "-gw-flow-rules" or
// "-gw-api-group-rules". It is "" for a kind not in DocumentKinds.
func DocumentName(app string, kind rules.Kind) string {
	s, ok := nameSuffixes[kind]
	if !ok {
		return ""
	}
	return app + s
}

// DocumentKind is the kind a name made by DocumentName stands for, and
// false for a name that ends in none of the suffixes.
func DocumentKind(name string) (rules.Kind, bool) {
	best, bestLen := rules.KindAuto, 0
	for k, s := range nameSuffixes {
		// The longest suffix decides: "-gw-flow-rules" also ends in
		// "-flow-rules".
		if strings.HasSuffix(name, s) && len(s) > bestLen {
			best, bestLen = k, len(s)
		}
	}
	return best, bestLen > 0
}
