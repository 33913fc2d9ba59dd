package sentinelgen.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.alibaba.csp.sentinel.slots.block.authority.AuthorityRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowClusterConfig;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowItem;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import com.alibaba.csp.sentinel.slots.system.SystemRule;
import com.alibaba.csp.sentinel.slots.block.flow.ClusterFlowConfig;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import com.alibaba.fastjson.TypeReference;

/**
 * Reads one Sentinel JSON document the way Sentinel's datasources do
 * (fastjson into FlowRule / DegradeRule) and describes the result as one
 * JSON line: every field of every rule as its getter returns it, and the
 * rules serialized back by fastjson, for the Go side to parse.
 *
 * A document is an array of one kind (its name says which: "param-flow",
 * "system", "authority", "degrade", else "flow"), or the object
 * {"flow": [...], "degrade": [...], "param-flow": [...], ...} the Go encoder
 * writes for a set of several kinds.
 */
final class RuleDocs {
    private RuleDocs() {}

    static String describe(String name, String text) {
        List<FlowRule> flow = new ArrayList<>();
        List<DegradeRule> degrade = new ArrayList<>();
        List<ParamFlowRule> param = new ArrayList<>();
        List<SystemRule> system = new ArrayList<>();
        List<AuthorityRule> authority = new ArrayList<>();
        String t = text.trim();
        if (t.startsWith("{")) {
            JSONObject o = JSON.parseObject(t);
            if (o.containsKey("flow")) {
                flow = JSON.parseObject(o.getJSONArray("flow").toJSONString(), new TypeReference<List<FlowRule>>() {});
            }
            if (o.containsKey("degrade")) {
                degrade = JSON.parseObject(o.getJSONArray("degrade").toJSONString(), new TypeReference<List<DegradeRule>>() {});
            }
            if (o.containsKey("param-flow")) {
                param = JSON.parseObject(o.getJSONArray("param-flow").toJSONString(), new TypeReference<List<ParamFlowRule>>() {});
            }
            if (o.containsKey("system")) {
                system = JSON.parseObject(o.getJSONArray("system").toJSONString(), new TypeReference<List<SystemRule>>() {});
            }
            if (o.containsKey("authority")) {
                authority = JSON.parseObject(o.getJSONArray("authority").toJSONString(), new TypeReference<List<AuthorityRule>>() {});
            }
        } else if (name.contains("param-flow")) {
            param = JSON.parseObject(t, new TypeReference<List<ParamFlowRule>>() {});
        } else if (name.contains("system")) {
            system = JSON.parseObject(t, new TypeReference<List<SystemRule>>() {});
        } else if (name.contains("authority")) {
            authority = JSON.parseObject(t, new TypeReference<List<AuthorityRule>>() {});
        } else if (name.contains("degrade")) {
            degrade = JSON.parseObject(t, new TypeReference<List<DegradeRule>>() {});
        } else {
            flow = JSON.parseObject(t, new TypeReference<List<FlowRule>>() {});
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", name);
        List<Map<String, Object>> fs = new ArrayList<>();
        for (FlowRule r : flow) {
            fs.add(fields(r));
        }
        List<Map<String, Object>> ds = new ArrayList<>();
        for (DegradeRule r : degrade) {
            ds.add(fields(r));
        }
        out.put("flow", fs);
        out.put("degrade", ds);
        out.put("flowJSON", JSON.toJSONString(flow));
        out.put("degradeJSON", JSON.toJSONString(degrade));
        List<Map<String, Object>> ps = new ArrayList<>();
        for (ParamFlowRule r : param) {
            ps.add(fields(r));
        }
        List<Map<String, Object>> ss = new ArrayList<>();
        for (SystemRule r : system) {
            ss.add(fields(r));
        }
        List<Map<String, Object>> as = new ArrayList<>();
        for (AuthorityRule r : authority) {
            as.add(fields(r));
        }
        out.put("paramFlow", ps);
        out.put("system", ss);
        out.put("authority", as);
        out.put("paramFlowJSON", JSON.toJSONString(param));
        out.put("systemJSON", JSON.toJSONString(system));
        out.put("authorityJSON", JSON.toJSONString(authority));
        return JSON.toJSONString(out);
    }

    private static Map<String, Object> fields(FlowRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", r.getResource());
        m.put("limitApp", r.getLimitApp());
        m.put("grade", r.getGrade());
        m.put("count", r.getCount());
        m.put("strategy", r.getStrategy());
        m.put("refResource", r.getRefResource());
        m.put("controlBehavior", r.getControlBehavior());
        m.put("warmUpPeriodSec", r.getWarmUpPeriodSec());
        m.put("maxQueueingTimeMs", r.getMaxQueueingTimeMs());
        m.put("clusterMode", r.isClusterMode());
        ClusterFlowConfig c = r.getClusterConfig();
        if (c != null) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("flowId", c.getFlowId());
            cm.put("thresholdType", c.getThresholdType());
            cm.put("fallbackToLocalWhenFail", c.isFallbackToLocalWhenFail());
            cm.put("windowIntervalMs", c.getWindowIntervalMs());
            cm.put("strategy", c.getStrategy());
            m.put("clusterConfig", cm);
        }
        return m;
    }

    private static Map<String, Object> fields(DegradeRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", r.getResource());
        m.put("limitApp", r.getLimitApp());
        m.put("grade", r.getGrade());
        m.put("count", r.getCount());
        m.put("timeWindow", r.getTimeWindow());
        m.put("minRequestAmount", r.getMinRequestAmount());
        m.put("slowRatioThreshold", r.getSlowRatioThreshold());
        m.put("statIntervalMs", r.getStatIntervalMs());
        return m;
    }

    private static Map<String, Object> fields(ParamFlowRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", r.getResource());
        m.put("limitApp", r.getLimitApp());
        m.put("grade", r.getGrade());
        m.put("paramIdx", r.getParamIdx());
        m.put("count", r.getCount());
        m.put("controlBehavior", r.getControlBehavior());
        m.put("maxQueueingTimeMs", r.getMaxQueueingTimeMs());
        m.put("burstCount", r.getBurstCount());
        m.put("durationInSec", r.getDurationInSec());
        List<Map<String, Object>> items = new ArrayList<>();
        if (r.getParamFlowItemList() != null) {
            for (ParamFlowItem it : r.getParamFlowItemList()) {
                Map<String, Object> im = new LinkedHashMap<>();
                im.put("object", it.getObject());
                im.put("count", it.getCount());
                im.put("classType", it.getClassType());
                items.add(im);
            }
        }
        m.put("paramFlowItemList", items);
        m.put("clusterMode", r.isClusterMode());
        ParamFlowClusterConfig c = r.getClusterConfig();
        if (c != null) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("flowId", c.getFlowId());
            cm.put("thresholdType", c.getThresholdType());
            cm.put("fallbackToLocalWhenFail", c.isFallbackToLocalWhenFail());
            cm.put("sampleCount", c.getSampleCount());
            cm.put("windowIntervalMs", c.getWindowIntervalMs());
            m.put("clusterConfig", cm);
        }
        return m;
    }

    private static Map<String, Object> fields(SystemRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("highestSystemLoad", r.getHighestSystemLoad());
        m.put("highestCpuUsage", r.getHighestCpuUsage());
        m.put("qps", r.getQps());
        m.put("avgRt", r.getAvgRt());
        m.put("maxThread", r.getMaxThread());
        return m;
    }

    private static Map<String, Object> fields(AuthorityRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", r.getResource());
        m.put("limitApp", r.getLimitApp());
        m.put("strategy", r.getStrategy());
        return m;
    }
}
