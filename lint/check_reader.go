package lint

import (
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
)

// checkInvalidRule reports every problem the rule reader found, one
// diagnostic each, at the field's position.
func checkInvalidRule(p *pass) {
	for _, e := range rules.Errors(p.opts.RulesErr) {
		p.report(e.Pos, "", "%s", fieldMessage(e))
	}
}

// checkRuleWarnings passes on what the reader ignored.
func checkRuleWarnings(p *pass) {
	for _, e := range p.set.Warnings {
		p.report(e.Pos, "", "%s", fieldMessage(e))
	}
}

// fieldMessage is e's message without its position, which the diagnostic
// carries itself.
func fieldMessage(e *rules.Error) string {
	if e.Field == "" || strings.HasPrefix(e.Msg, e.Field+" ") {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// checkDirectives reports the code's own diagnostics (from annotate.Load)
// beside the rules' findings, so one run shows everything that stands
// between the rules and the resources they are for.
func checkDirectives(p *pass) {
	for _, d := range p.opts.Code {
		p.report(rules.Position{File: d.Pos.Filename, Line: d.Pos.Line}, "", "%s", d.Message)
		for _, r := range d.Related {
			last := &p.diags[len(p.diags)-1]
			last.Related = append(last.Related, Related{Pos: rules.Position{File: r.Pos.Filename, Line: r.Pos.Line}, Message: r.Message})
		}
	}
}
