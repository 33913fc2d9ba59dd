package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary documents to Parse in both formats. Parse must
// never panic, every error it returns must be an *Error, and whatever it
// accepts must survive Encode and Parse again unchanged.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	more, _ := filepath.Glob("testdata/encoded/*")
	for _, file := range append(files, more...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, filepath.Ext(file) == ".json")
	}
	f.Add([]byte("flow = [{ resource = 'a', clusterConfig = { flowId = 1 } }]"), false)
	f.Add([]byte(`{"flow": [{"resource": "a"}], "degrade": [{"resource": "b", "timeWindow": 1}]}`), true)
	f.Add([]byte(`{"param-flow": [{"resource": "a", "paramIdx": -1, "count": 2, "paramFlowItemList": [{"object": "x", "count": 1}]}], "system": [{"qps": 3}], "authority": [{"resource": "a", "limitApp": "o"}]}`), true)
	f.Add([]byte("[[paramFlow]]\nresource = 'a'\nparam = 'sku'\ncount = 1\n[[system]]\navgRt = 5\n[[authority]]\nresource = 'a'\nlimitApp = 'x,y'\n"), false)

	f.Fuzz(func(t *testing.T, data []byte, isJSON bool) {
		format := FormatTOML
		if isJSON {
			format = FormatJSON
		}
		s, err := Parse(Document{Name: "fuzz", Data: data, Format: format, Kind: KindFlow})
		if err != nil {
			if len(Errors(err)) == 0 {
				t.Fatalf("error without *Error: %v", err)
			}
			return
		}
		if len(s.FlowAt) != len(s.Flow) || len(s.DegradeAt) != len(s.Degrade) || len(s.ParamFlowAt) != len(s.ParamFlow) ||
			len(s.SystemAt) != len(s.System) || len(s.AuthorityAt) != len(s.Authority) ||
			(s.ParamFlowParam != nil && len(s.ParamFlowParam) != len(s.ParamFlow)) {
			t.Fatalf("positions out of step: %+v", s)
		}
		for _, out := range []Format{FormatTOML, FormatJSON} {
			enc, err := Encode(s, out)
			if err != nil {
				continue // e.g. a resource name that is not valid UTF-8
			}
			back, err := Parse(Document{Name: "again", Data: enc, Format: out})
			if err != nil {
				t.Fatalf("Parse(Encode(%v)) failed: %v\n%s", out, err, enc)
			}
			if !back.Equal(s) {
				t.Fatalf("Parse(Encode(%v)) differs:\n%s", out, enc)
			}
		}
	})
}
