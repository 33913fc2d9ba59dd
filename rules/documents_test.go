package rules

import (
	"slices"
	"testing"
)

// ParseDocuments stands for what a Source pushed, which replaces the rules in
// force: unlike LoadAll it never returns part of the set, but it still
// reports the problems of every document.
func TestParseDocumentsAllOrNothing(t *testing.T) {
	good := Document{Name: "a.toml", Data: []byte("[[flow]]\nresource = 'a'\ncount = 1\n")}
	other := Document{Name: "b-flow.json", Data: []byte(`[{"resource": "b", "count": 1}]`)}
	bad1 := Document{Name: "c.toml", Data: []byte("[[flow]]\nresource = 'c'\ncount = -1\n")}
	bad2 := Document{Name: "d.toml", Data: []byte("[[flow]]\nresource = 'd'\ncolor = 1\ncount = 1\n")}

	s, err := ParseDocuments([]Document{good, other})
	if err != nil {
		t.Fatal(err)
	}
	if got := flowResourceNames(s); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("merged flow resources %v, want [a b]", got)
	}

	s, err = ParseDocuments([]Document{good, bad1, other, bad2})
	if len(s.Flow) != 0 || s.FlowAt != nil {
		t.Errorf("rules returned along with errors: %+v", s)
	}
	var files []string
	for _, e := range Errors(err) {
		files = append(files, e.Pos.File)
	}
	if !slices.Equal(files, []string{"c.toml", "d.toml"}) {
		t.Errorf("errors from %v, want one from c.toml and one from d.toml: %v", files, err)
	}
}

// ParseAll keeps the valid rules of every document, also of a document with
// an invalid rule, beside the problems of all of them: what the linter
// checks when its rules come from a store.
func TestParseAllKeepsTheValidRules(t *testing.T) {
	good := Document{Name: "nacos:G/a-flow-rules", Kind: KindFlow, Data: []byte(`[{"resource": "a", "count": 1}]`)}
	mixed := Document{Name: "nacos:G/b-flow-rules", Kind: KindFlow,
		Data: []byte("[\n{\"resource\": \"b\", \"count\": 1},\n{\"resource\": \"c\", \"count\": -1}\n]")}

	s, err := ParseAll([]Document{good, mixed})
	if got := flowResourceNames(s); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("flow resources %v, want [a b]", got)
	}
	problems := Errors(err)
	if len(problems) != 1 || problems[0].Pos.File != "nacos:G/b-flow-rules" || problems[0].Pos.Line != 3 {
		t.Fatalf("problems %v, want one at nacos:G/b-flow-rules line 3", err)
	}
}
