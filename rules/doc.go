// Package rules reads, checks, writes and applies Sentinel rule documents.
//
// A rule document is a file or a configuration-centre entry in one of two
// formats:
//
//   - TOML, the native format: [[flow]] and [[degrade]] tables whose keys are
//     Sentinel's field names in lowerCamel (resource, grade, count, ...), enums
//     as words ("qps", "warmUp", "errorRatio") or Sentinel's numbers, and
//     duration spellings such as statInterval = "500ms". Unknown keys are
//     errors, with a suggestion for likely typos.
//   - Sentinel's own JSON, unchanged: the array of FlowRule or DegradeRule
//     objects a Java service keeps in Nacos (one kind per document, told by
//     the document's name or its fields), or an object {"flow": [...],
//     "degrade": [...]}. Fields the runtime does not have are ignored with a
//     warning.
//
// Both formats fill the fields a document leaves out with Sentinel 1.8's
// defaults, so a TOML rule and its JSON twin are the same rule.
//
// The way from a file to the runtime:
//
//	Load / LoadAll / Parse(Document)  ->  Set (rules + where each was read)
//	Validate(Set)                      ->  every problem, positioned (*Error)
//	Apply(Set)                         ->  runtime.LoadRules: all kinds or none
//	Current() / Encode(Set, Format)    ->  the rules in force, written back out
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
