package rules

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

// Format is the syntax of a rule document.
type Format int

const (
	// FormatAuto infers the format from the document's name (.toml, .json),
	// then from its content.
	FormatAuto Format = iota
	// FormatTOML is the native format: [[flow]] and [[degrade]] tables.
	FormatTOML
	// FormatJSON is Sentinel's own JSON: the array of rules a Java service
	// keeps in Nacos, Apollo or ZooKeeper, one rule kind per document.
	FormatJSON
)

// String returns "auto", "toml" or "json".
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatTOML:
		return "toml"
	case FormatJSON:
		return "json"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Kind is the kind of rules a Sentinel JSON document holds. The names are
// Spring Cloud Alibaba's rule-type names.
type Kind string

const (
	// KindAuto infers the kind from the document's name, then from the fields
	// of its elements.
	KindAuto Kind = ""
	// KindFlow marks a document of flow rules.
	KindFlow Kind = "flow"
	// KindDegrade marks a document of degrade (circuit breaker) rules.
	KindDegrade Kind = "degrade"
	// KindParamFlow marks a document of hot-parameter (ParamFlowRule) rules.
	KindParamFlow Kind = "param-flow"
	// KindSystem marks a document of system adaptive protection rules.
	KindSystem Kind = "system"
	// KindAuthority marks a document of authority (origin white and black
	// list) rules.
	KindAuthority Kind = "authority"
)

// Document is one rule document as read from a source.
type Document struct {
	// Name is the file path or source key; it appears in positions and is
	// used to infer Format and Kind.
	Name string
	// Data is the document's content.
	Data []byte
	// Format is the document's syntax. FormatAuto looks at Name's extension
	// (.toml, .json), then at the content: an object, or an array whose first
	// element is an object (or that is empty), is JSON; anything else TOML.
	Format Format
	// Kind applies to JSON only. KindAuto infers it from Name's last element
	// (naming one kind only: "flow", "degrade", "param-flow" or "paramflow",
	// "system", "authority"), else from the fields of the elements. A JSON
	// object {"flow":[...],"degrade":[...],"param-flow":[...],...} holds
	// several kinds and needs no Kind.
	Kind Kind
}

// Parse reads doc and validates every field. All problems are returned,
// joined, each an *Error with a position; on error the Set is empty.
// Non-fatal findings are in the Set's Warnings.
func Parse(doc Document) (Set, error) {
	s, err := parsePartial(doc)
	if err != nil {
		return Set{}, err
	}
	return s, nil
}

// parsePartial is Parse, except that beside an error the Set holds the
// rules of doc that have no problem of their own (see decoder.result): what
// LoadAll gives the tools that check what they can.
func parsePartial(doc Document) (Set, error) {
	switch f := inferFormat(doc); f {
	case FormatTOML:
		return parseTOML(doc.Name, doc.Data)
	case FormatJSON:
		return parseJSON(doc.Name, doc.Data, doc.Kind)
	default:
		return Set{}, &Error{Pos: Position{File: doc.Name}, Msg: fmt.Sprintf("unknown format %v", f)}
	}
}

// ResolvedFormat is the format Parse reads doc in: doc.Format, or for
// FormatAuto the name's extension (.toml, .json), else JSON when the data
// starts like Sentinel's JSON, else TOML. Adapters use it to write a key back
// in the format it was read in.
func (doc Document) ResolvedFormat() Format { return inferFormat(doc) }

// inferFormat resolves FormatAuto for doc.
func inferFormat(doc Document) Format {
	if doc.Format != FormatAuto {
		return doc.Format
	}
	switch strings.ToLower(path.Ext(doc.Name)) {
	case ".toml":
		return FormatTOML
	case ".json":
		return FormatJSON
	}
	if looksLikeJSON(doc.Data) {
		return FormatJSON
	}
	return FormatTOML
}

// looksLikeJSON tells a JSON document from a TOML one by its first
// characters. Both may start with '[': TOML's "[[flow]]" or "[flow]" is
// followed by a name, Sentinel's array by '{' or ']'.
func looksLikeJSON(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(data) == 0 {
		return false
	}
	switch data[0] {
	case '{':
		return true
	case '[':
		rest := bytes.TrimLeft(data[1:], " \t\r\n")
		return len(rest) == 0 || rest[0] == '{' || rest[0] == ']'
	}
	return false
}

// KindFromName infers a JSON document's kind from the last element of its
// name ("orders-flow-rules.json", "etcd:/sentinel/orders/degrade",
// "orders-param-flow.json"); KindAuto when the name mentions no kind or
// several. Parse uses it for documents whose Kind is KindAuto.
func KindFromName(name string) Kind { return kindFromName(name) }
