package sentinelgen.conformance;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.EntryType;
import com.alibaba.csp.sentinel.Env;
import com.alibaba.csp.sentinel.Tracer;
import com.alibaba.csp.sentinel.context.Context;
import com.alibaba.csp.sentinel.context.ContextAccess;
import com.alibaba.csp.sentinel.context.ContextUtil;
import com.alibaba.csp.sentinel.node.ClusterNode;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.authority.AuthorityException;
import com.alibaba.csp.sentinel.slots.block.authority.AuthorityRule;
import com.alibaba.csp.sentinel.slots.block.authority.AuthorityRuleManager;
import com.alibaba.csp.sentinel.slots.block.degrade.BreakerAccess;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeException;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.CircuitBreaker;
import com.alibaba.csp.sentinel.slots.block.flow.FlowException;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowException;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRuleManager;
import com.alibaba.csp.sentinel.slots.clusterbuilder.ClusterBuilderSlot;
import com.alibaba.csp.sentinel.slots.system.SystemBlockException;
import com.alibaba.csp.sentinel.slots.system.SystemRule;
import com.alibaba.csp.sentinel.slots.system.SystemRuleManager;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import com.alibaba.fastjson.TypeReference;

/**
 * Replays scenario files (conformance/testdata/README.md describes the
 * format) through sentinel-core and prints one line per event: the file
 * name first ("== file"), then "LINE OUTPUT" for every event line. The Go
 * side prints the same for its runtime; the test diffs the two.
 */
final class Replay {
    /** Context name for calls with an origin and no entrance. */
    private static final String ORIGIN_CONTEXT = "conformance_origin";

    private final PrintStream out;
    /** Open entries by scenario id, each with the Context it runs in. */
    private final Map<String, Open> open = new HashMap<>();
    /** The degrade rules of the last load, to name a breaker by its index. */
    private List<DegradeRule> degrade = new ArrayList<>();

    private static final class Open {
        final Entry entry;
        final Context context;
        final int acquire;
        final Object[] args;

        Open(Entry entry, Context context, int acquire, Object[] args) {
            this.entry = entry;
            this.context = context;
            this.acquire = acquire;
            this.args = args;
        }
    }

    Replay(PrintStream out) {
        this.out = out;
    }

    void run(String name, String text, long startNanos) {
        reset();
        FakeClock.set(startNanos);
        out.println("== " + name);
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("//")) {
                continue;
            }
            String result;
            try {
                result = event(JSON.parseObject(line));
            } catch (Throwable t) {
                result = "error " + t;
            }
            out.println((i + 1) + " " + result);
        }
        reset();
    }

    /** Ends what a scenario left open and clears the rules, for the next one. */
    private void reset() {
        for (Open o : open.values()) {
            ContextAccess.replace(o.context);
            try {
                o.entry.exit(o.acquire, o.args);
                ContextUtil.exit();
            } catch (Throwable ignored) {
                // The next scenario starts clean either way.
            }
            ContextAccess.replace(null);
        }
        open.clear();
        FlowRuleManager.loadRules(new ArrayList<>());
        DegradeRuleManager.loadRules(new ArrayList<>());
        ParamFlowRuleManager.loadRules(new ArrayList<>());
        SystemRuleManager.loadRules(new ArrayList<>());
        AuthorityRuleManager.loadRules(new ArrayList<>());
        FakeSystem.set(-1, -1);
        degrade = new ArrayList<>();
    }

    private String event(JSONObject ev) throws Exception {
        String op = ev.getString("op");
        switch (op == null ? "" : op) {
            case "rules":
                return rules(ev);
            case "advance":
                FakeClock.set(FakeClock.now() + ev.getLongValue("ms") * 1_000_000L + ev.getLongValue("us") * 1_000L);
                return "advance";
            case "entry":
                return entry(ev, false);
            case "call":
                return entry(ev, true);
            case "exit":
                return exit(ev.getString("id"), ev.getLongValue("rt"), ev.getBooleanValue("error"));
            case "check":
                return check(ev.getString("resource"));
            case "system-readings":
                // A field left out keeps its reading.
                FakeSystem.set(ev.containsKey("load") ? ev.getDoubleValue("load") : FakeSystem.load(),
                        ev.containsKey("cpu") ? ev.getDoubleValue("cpu") : FakeSystem.cpu());
                return "system-readings";
            default:
                return "error unknown op " + op;
        }
    }

    private String rules(JSONObject ev) {
        JSONArray flow = ev.getJSONArray("flow");
        if (flow != null) {
            List<FlowRule> list = JSON.parseObject(flow.toJSONString(), new TypeReference<List<FlowRule>>() {});
            FlowRuleManager.loadRules(list);
        }
        JSONArray deg = ev.getJSONArray("degrade");
        if (deg != null) {
            List<DegradeRule> list = JSON.parseObject(deg.toJSONString(), new TypeReference<List<DegradeRule>>() {});
            DegradeRuleManager.loadRules(list);
            degrade = list;
        }
        JSONArray param = ev.getJSONArray("paramFlow");
        if (param != null) {
            ParamFlowRuleManager.loadRules(JSON.parseObject(param.toJSONString(), new TypeReference<List<ParamFlowRule>>() {}));
        }
        JSONArray system = ev.getJSONArray("system");
        if (system != null) {
            SystemRuleManager.loadRules(JSON.parseObject(system.toJSONString(), new TypeReference<List<SystemRule>>() {}));
        }
        JSONArray authority = ev.getJSONArray("authority");
        if (authority != null) {
            AuthorityRuleManager.loadRules(JSON.parseObject(authority.toJSONString(), new TypeReference<List<AuthorityRule>>() {}));
        }
        return "rules flow=" + FlowRuleManager.getRules().size() + " degrade=" + DegradeRuleManager.getRules().size();
    }

    private String entry(JSONObject ev, boolean call) throws Exception {
        String resource = ev.getString("resource");
        int acquire = ev.containsKey("acquire") ? ev.getIntValue("acquire") : 1;
        EntryType type = "in".equals(ev.getString("type")) ? EntryType.IN : EntryType.OUT;
        String origin = ev.getString("origin") == null ? "" : ev.getString("origin");
        String entrance = ev.getString("entrance") == null ? "" : ev.getString("entrance");
        JSONArray a = ev.getJSONArray("args");
        Object[] args = a == null ? new Object[0] : a.toArray();
        boolean prioritized = ev.getBooleanValue("prioritized");

        ContextAccess.replace(null);
        if (!entrance.isEmpty()) {
            ContextUtil.enter(entrance, origin);
        } else if (!origin.isEmpty()) {
            ContextUtil.enter(ORIGIN_CONTEXT, origin);
        }
        long before = FakeClock.now();
        Entry e;
        try {
            e = Env.sph.entryWithPriority(resource, type, acquire, prioritized, args);
        } catch (BlockException b) {
            ContextUtil.exit();
            ContextAccess.replace(null);
            long waited = FakeClock.now() - before;
            return waited > 0 ? block(b) + " wait=" + waited : block(b);
        }
        long waited = FakeClock.now() - before;
        Open o = new Open(e, ContextUtil.getContext(), acquire, args);
        ContextAccess.replace(null);
        String result = waited > 0 ? "pass wait=" + waited : "pass";
        if (call) {
            exitOpen(o, ev.getLongValue("rt"), ev.getBooleanValue("error"));
        } else {
            String id = ev.getString("id");
            if (id != null) {
                open.put(id, o);
            }
        }
        return result;
    }

    private String block(BlockException b) {
        if (b instanceof FlowException) {
            // Java checks a resource's flow rules in hash order (see
            // FlowRuleUtil), so which one blocked is not compared.
            return "block flow";
        }
        if (b instanceof DegradeException) {
            return "block degrade #" + degrade.indexOf(b.getRule());
        }
        if (b instanceof ParamFlowException) {
            return "block param-flow value=" + ((ParamFlowException) b).getLimitParam();
        }
        if (b instanceof SystemBlockException) {
            return "block system " + ((SystemBlockException) b).getLimitType();
        }
        if (b instanceof AuthorityException) {
            return "block authority";
        }
        return "block " + b.getClass().getSimpleName();
    }

    private String exit(String id, long rtMs, boolean error) {
        Open o = open.remove(id);
        if (o == null) {
            if (rtMs > 0) {
                FakeClock.set(FakeClock.now() + rtMs * 1_000_000L);
            }
            return "exit none";
        }
        exitOpen(o, rtMs, error);
        return "exit";
    }

    private void exitOpen(Open o, long rtMs, boolean error) {
        if (rtMs > 0) {
            FakeClock.set(FakeClock.now() + rtMs * 1_000_000L);
        }
        ContextAccess.replace(o.context);
        if (error) {
            Tracer.traceEntry(new RuntimeException("business failure"), o.entry);
        }
        o.entry.exit(o.acquire, o.args);
        ContextUtil.exit();
        ContextAccess.replace(null);
    }

    private String check(String resource) {
        StringBuilder s = new StringBuilder("breakers=");
        List<CircuitBreaker> cbs = BreakerAccess.of(resource);
        for (int i = 0; i < cbs.size(); i++) {
            s.append(i > 0 ? "," : "").append(cbs.get(i).currentState().name());
        }
        if (cbs.isEmpty()) {
            s.append("-");
        }
        ClusterNode n = ClusterBuilderSlot.getClusterNode(resource);
        long pass = 0, block = 0, success = 0, error = 0, threads = 0;
        if (n != null) {
            pass = (long) n.passQps();
            block = (long) n.blockQps();
            success = (long) n.successQps();
            error = (long) n.exceptionQps();
            threads = n.curThreadNum();
        }
        return s + " pass=" + pass + " block=" + block + " success=" + success + " error=" + error + " threads=" + threads;
    }
}
