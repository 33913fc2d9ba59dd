// Package rules reads, checks, writes and applies Sentinel rule documents.
//
// A rule document is a file or a configuration-centre entry in one of two
// formats:
//
//   - TOML, the native format: [[flow]], [[degrade]], [[paramFlow]],
//     [[system]] and [[authority]] tables whose keys are Sentinel's field
//     names in lowerCamel (resource, grade, count, ...), enums as words
//     ("qps", "warmUp", "errorRatio", "black") or Sentinel's numbers, and
//     duration spellings such as statInterval = "500ms". A hot-parameter rule
//     may name its parameter (param = "sku") instead of giving paramIdx; Apply
//     resolves the name (see Resolve). Unknown keys are errors, with a
//     suggestion for likely typos.
//   - Sentinel's own JSON, unchanged: the array of FlowRule, DegradeRule,
//     ParamFlowRule, SystemRule or AuthorityRule objects a Java service keeps
//     in Nacos (one kind per document, told by the document's name, e.g.
//     "orders-param-flow-rules", or its fields), or an object {"flow": [...],
//     "degrade": [...], "param-flow": [...], "system": [...], "authority":
//     [...]}. Fields the runtime does not have are ignored with a warning.
//
// Go's FlowGrade has QPS as its zero value; Sentinel JSON keeps Sentinel's
// numbers (grade 0 is the thread grade, 1 QPS), mapped when read and
// written.
//
// Both formats fill the fields a document leaves out with Sentinel 1.8's
// defaults, so a TOML rule and its JSON twin are the same rule.
//
// The way from a file to the runtime:
//
//	Load / LoadAll / Parse(Document)  ->  Set (rules + where each was read)
//	Validate(Set)                      ->  every problem, positioned (*Error)
//	Apply(Set)                         ->  runtime.LoadRules: all kinds or none
//	Update(func(cur Set) (Set, error)) ->  read-modify-write, one at a time
//	Current() / Encode(Set, Format)    ->  the rules in force, written back out
//
// Apply and Update are the one writer of the rules in force: each change
// through them (a data source's update, a dashboard push, a call in code)
// reads, builds and loads under one lock and advances Generation, so two
// changes of different kinds never undo each other. Rules loaded with
// runtime.LoadRules directly bypass that lock.
//
// Parse validates too, so a Set it returns can be applied. Errors name the
// file and line (TOML) or JSON path of the offending rule or field and say
// what is allowed; all problems are reported, joined with errors.Join (see
// Errors). A Set returned with an error is empty, except from LoadAll: it
// returns every rule without a problem of its own, also those of files with
// invalid rules, beside the errors, for tools that check what they can;
// such a partial set is reported, never applied. Watching sources for changes and writing rules
// back belong to package datasource (with datasource/file and the nested
// module datasource/etcd), as Sentinel's data sources sit apart from its
// rule managers.
package rules
