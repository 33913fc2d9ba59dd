package transport

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// A push of a rate limiter that would park callers for weeks is refused
// with the reason and the rule's place in the pushed document.
func TestPushOverTheQueueingBoundIsRefused(t *testing.T) {
	f := newFixture(t, Config{})
	before := manyFlowRules(1)
	if err := runtime.LoadFlowRules(before); err != nil {
		t.Fatal(err)
	}
	data := `[{"resource":"a","grade":1,"count":5.0,"controlBehavior":2,"maxQueueingTimeMs":500},` +
		`{"resource":"b","grade":1,"count":5.0,"controlBehavior":2,"maxQueueingTimeMs":2147483647}]`
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}})
	if code != http.StatusBadRequest || !strings.Contains(body, "dashboard:flow:1") || !strings.Contains(body, "maxQueueingTimeMs") ||
		!strings.Contains(body, "SetMaxQueueingTime") {
		t.Errorf("push with maxQueueingTimeMs 2147483647 = %d %q", code, body)
	}
	if got := runtime.FlowRules(); !reflect.DeepEqual(got, before) {
		t.Errorf("rules after the refused push = %+v", got)
	}
}
