package javainterop

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The hot-parameter rule both servers hold: flowId 111, 2 per value and
// second across the cluster, 1 for the long 7.
const paramRulesJSON = `[{"resource":"getItem","paramIdx":0,"count":2,"clusterMode":true,` +
	`"clusterConfig":{"flowId":111,"thresholdType":1,"fallbackToLocalWhenFail":true},` +
	`"paramFlowItemList":[{"object":"7","classType":"long","count":1}]}]`

func goParamRules() []runtime.ParamFlowRule {
	return []runtime.ParamFlowRule{{Resource: "getItem", Grade: runtime.FlowGradeQPS, Count: 2,
		Items:       []runtime.ParamFlowItem{{Object: "7", ClassType: "long", Count: 1}},
		ClusterMode: true, ClusterConfig: runtime.ClusterConfig{FlowID: 111, ThresholdType: runtime.Global, FallbackToLocalWhenFail: true}}}
}

// paramSequence is what every pairing is asked: values as the Java harness
// reads them (s: a string, l: a long).
var paramSequence = []string{"s:a", "s:a", "s:a", "l:7", "l:7", "s:c,s:d", "s:c,s:a", "s:e"}

// paramWant is Sentinel's ClusterParamFlowChecker's answers to it.
var paramWant = []answer{"0 1 0", "0 0 0", "1 0 0", "0 0 0", "1 0 0", "0 -1 0", "1 0 0", "0 1 0"}

// goArg is a paramSequence entry as the runtime's argument.
func goArg(t *testing.T, values string) runtime.ParamArg {
	var strs []string
	for _, v := range strings.Split(values, ",") {
		switch v[0] {
		case 's':
			strs = append(strs, v[2:])
		case 'l':
			n, err := strconv.ParseInt(v[2:], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return runtime.IntArg(n)
		}
	}
	if len(strs) == 1 {
		return runtime.StringArg(strs[0])
	}
	return runtime.StringsArg(strs)
}

func askParamsWithGoClient(t *testing.T, addr string) []answer {
	t.Helper()
	c := goClient(t, addr)
	var out []answer
	for _, v := range paramSequence {
		arg := goArg(t, v)
		out = append(out, goAnswer(c.RequestParam(111, 1, &arg)))
	}
	return out
}

func askParamsWithJavaClient(t *testing.T, addr string) []answer {
	t.Helper()
	p := javaClient(t, addr)
	var out []answer
	for _, v := range paramSequence {
		out = append(out, answer(p.do("param 111 1 %s", v)))
	}
	return out
}

// Hot-parameter tokens: every pairing of Go and Java client and server
// answers as Java's pair does, value by value.
func TestParamTokensAgainstJava(t *testing.T) {
	pairs := []struct {
		name string
		ask  func() []answer
	}{
		{"java client, java server", func() []answer { return askParamsWithJavaClient(t, startJavaServer(t)) }},
		{"go client, java server", func() []answer { return askParamsWithGoClient(t, startJavaServer(t)) }},
		{"java client, go server", func() []answer { return askParamsWithJavaClient(t, startGoServer(t)) }},
		{"go client, go server", func() []answer { return askParamsWithGoClient(t, startGoServer(t)) }},
	}
	for _, p := range pairs {
		if got := p.ask(); !slices.Equal(got, paramWant) {
			t.Errorf("%s answered\n%v\nwant\n%v", p.name, got, paramWant)
		}
	}
}
