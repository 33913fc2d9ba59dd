package runtime

import "context"

// SCAFFOLD (lead, 2026-12-01): the rule-framework helper replaces this file.

// EntryArgsTo is EntryTo for a call whose arguments hot-parameter rules may
// check: args[i] is the key of the i-th parameter after a leading
// context.Context (see ParamFlowRule.ParamIdx).
func (r *Resource) EntryArgsTo(e *Entry, ctx context.Context, args []ParamArg, opts ...EntryOption) *BlockError {
	return r.EntryTo(e, ctx, opts...)
}

// HasParamRules reports whether a hot-parameter rule names the resource, so
// that callers build argument keys only when a rule will read them.
func (r *Resource) HasParamRules() bool { return false }
