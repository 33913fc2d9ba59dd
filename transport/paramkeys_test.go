package transport

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestPushOfParamRuleThatNeverAppliesIsRefused: a hot-parameter push on a
// parameter past the resource's declared ones, or on one that gives no
// key, is answered 400 with the linter's reason, and nothing changes.
func TestPushOfParamRuleThatNeverAppliesIsRefused(t *testing.T) {
	runtime.NewResource("pk.push.create", runtime.WithParamNames("sku", "req"),
		runtime.WithParamKeys(runtime.ParamKeyString, runtime.ParamNoKey))
	f := newFixture(t, Config{})
	if code, body := f.post("setParamFlowRules", url.Values{"data": {`[{"resource":"pk.push.create","paramIdx":0,"count":5}]`}}); code != http.StatusOK {
		t.Fatalf("push of a rule on sku: %d %s", code, body)
	}
	for data, want := range map[string]string{
		`[{"resource":"pk.push.create","paramIdx":1,"count":5}]`: "parameter req (paramIdx 1) cannot be a hot-parameter key",
		`[{"resource":"pk.push.create","paramIdx":2,"count":5}]`: "paramIdx 2 is out of range",
	} {
		code, body := f.post("setParamFlowRules", url.Values{"data": {data}})
		if code != http.StatusBadRequest || !strings.Contains(body, "paramFlow[0].paramIdx: "+want) {
			t.Errorf("push %s: %d %q, want 400 saying paramFlow[0].paramIdx: %q", data, code, body, want)
		}
		if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].ParamIdx != 0 {
			t.Errorf("rules in force after a refused push: %+v", got)
		}
	}
}
