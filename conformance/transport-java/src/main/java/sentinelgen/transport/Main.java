package sentinelgen.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.Tracer;
import com.alibaba.csp.sentinel.command.vo.NodeVo;
import com.alibaba.csp.sentinel.init.InitExecutor;
import com.alibaba.csp.sentinel.node.metric.MetricNode;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.authority.AuthorityRule;
import com.alibaba.csp.sentinel.slots.block.authority.AuthorityRuleManager;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleUtil;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRuleUtil;
import com.alibaba.csp.sentinel.slots.system.SystemRule;
import com.alibaba.csp.sentinel.slots.system.SystemRuleManager;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;

/**
 * Sentinel's side of the dashboard-protocol comparison, driven by the Go test.
 *
 * <p>{@code parse}: reads one JSON object of command answers from stdin and
 * parses each the way the dashboard does (MetricNode.fromThinString, fastjson
 * into NodeVo and into the rule beans), printing what Java read, re-serialised
 * by fastjson, plus whether Sentinel's validators accept each rule.
 *
 * <p>{@code serve}: loads rules given as JSON on stdin's first line, starts
 * Sentinel's own command center (simple-http) and heartbeat, prints "ready",
 * then runs workload lines from stdin: "pass RES N" (N calls), "fail RES N"
 * (N calls with a traced error); "done" is printed after each; EOF exits.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (args.length > 0 ? args[0] : "") {
            case "parse":
                parse(in);
                break;
            case "serve":
                serve(in);
                break;
            default:
                System.err.println("usage: Main parse|serve");
                System.exit(2);
        }
    }

    private static void parse(BufferedReader in) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String l; (l = in.readLine()) != null; ) {
            sb.append(l).append('\n');
        }
        JSONObject answers = JSON.parseObject(sb.toString());
        Map<String, Object> out = new LinkedHashMap<>();
        if (answers.containsKey("metric")) {
            List<MetricNode> nodes = new ArrayList<>();
            for (String line : answers.getString("metric").split("\n")) {
                if (!line.trim().isEmpty()) {
                    nodes.add(MetricNode.fromThinString(line));
                }
            }
            out.put("metric", nodes);
        }
        for (String k : new String[] {"clusterNode", "jsonTree"}) {
            if (answers.containsKey(k)) {
                out.put(k, JSON.parseArray(answers.getString(k), NodeVo.class));
            }
        }
        if (answers.containsKey("flow")) {
            List<FlowRule> rules = JSON.parseArray(answers.getString("flow"), FlowRule.class);
            out.put("flow", rules);
            List<Boolean> valid = new ArrayList<>();
            for (FlowRule r : rules) {
                valid.add(FlowRuleUtil.isValidRule(r));
            }
            out.put("flowValid", valid);
        }
        if (answers.containsKey("degrade")) {
            List<DegradeRule> rules = JSON.parseArray(answers.getString("degrade"), DegradeRule.class);
            out.put("degrade", rules);
            List<Boolean> valid = new ArrayList<>();
            for (DegradeRule r : rules) {
                valid.add(DegradeRuleManager.isValidRule(r));
            }
            out.put("degradeValid", valid);
        }
        if (answers.containsKey("system")) {
            out.put("system", JSON.parseArray(answers.getString("system"), SystemRule.class));
        }
        if (answers.containsKey("authority")) {
            List<AuthorityRule> rules = JSON.parseArray(answers.getString("authority"), AuthorityRule.class);
            out.put("authority", rules);
            List<Boolean> valid = new ArrayList<>();
            for (AuthorityRule r : rules) {
                valid.add(AuthorityRuleManager.isValidRule(r));
            }
            out.put("authorityValid", valid);
        }
        if (answers.containsKey("paramFlow")) {
            List<ParamFlowRule> rules = JSON.parseArray(answers.getString("paramFlow"), ParamFlowRule.class);
            out.put("paramFlow", rules);
            List<Boolean> valid = new ArrayList<>();
            for (ParamFlowRule r : rules) {
                valid.add(ParamFlowRuleUtil.isValidRule(r));
            }
            out.put("paramFlowValid", valid);
        }
        System.out.println(JSON.toJSONString(out));
    }

    private static void serve(BufferedReader in) throws Exception {
        JSONObject rules = JSON.parseObject(in.readLine());
        if (rules.containsKey("flow")) {
            FlowRuleManager.loadRules(JSON.parseArray(rules.getString("flow"), FlowRule.class));
        }
        if (rules.containsKey("degrade")) {
            DegradeRuleManager.loadRules(JSON.parseArray(rules.getString("degrade"), DegradeRule.class));
        }
        if (rules.containsKey("system")) {
            SystemRuleManager.loadRules(JSON.parseArray(rules.getString("system"), SystemRule.class));
        }
        if (rules.containsKey("authority")) {
            AuthorityRuleManager.loadRules(JSON.parseArray(rules.getString("authority"), AuthorityRule.class));
        }
        if (rules.containsKey("paramFlow")) {
            ParamFlowRuleManager.loadRules(JSON.parseArray(rules.getString("paramFlow"), ParamFlowRule.class));
        }
        InitExecutor.doInit();
        System.out.println("ready");
        System.out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            if (f.length == 3) {
                boolean fail = f[0].equals("fail");
                int n = Integer.parseInt(f[2]);
                for (int i = 0; i < n; i++) {
                    call(f[1], fail);
                }
            }
            System.out.println("done");
            System.out.flush();
        }
    }

    private static void call(String resource, boolean fail) {
        Entry e = null;
        try {
            e = SphU.entry(resource);
            if (fail) {
                Tracer.traceEntry(new IllegalStateException("failed"), e);
            }
        } catch (BlockException ex) {
            // counted as a block by Sentinel's statistics
        } finally {
            if (e != null) {
                e.exit();
            }
        }
    }
}
