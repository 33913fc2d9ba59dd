package dev.sentinelgen.bench;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.RuleConstant;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRule;
import com.alibaba.csp.sentinel.slots.block.degrade.DegradeRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.FlowException;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * One guarded call through Java Sentinel, with the rules the Go peers get in
 * ../../config_test.go: a QPS flow rule of 1e12 (pass) or 0 (block) and a
 * slow-request-ratio breaker that never trips, per resource.
 *
 * <p>Throughput mode, so that the parallel variants report calls per second
 * over all threads; run.sh turns that into wall time per call, the figure Go's
 * RunParallel reports.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SentinelBench {

    static final String PASS_RESOURCE = "bench-pass";
    static final String BLOCK_RESOURCE = "bench-block";

    static final double PASS_QPS = 1e12;
    static final double BLOCK_QPS = 0;
    static final int SLOW_CALL_RT_MS = 60_000;
    static final double SLOW_RATIO_THRESHOLD = 0.5;
    static final int BREAKER_MIN_REQUESTS = 5;
    static final int BREAKER_WINDOW_MS = 1000;
    static final int BREAKER_OPEN_FOR_SEC = 10;

    /** Loads the flow and breaker rules for both resources and checks both paths once. */
    @Setup(Level.Trial)
    public void loadRules() throws Exception {
        List<FlowRule> flow = new ArrayList<>();
        flow.add(flowRule(PASS_RESOURCE, PASS_QPS));
        flow.add(flowRule(BLOCK_RESOURCE, BLOCK_QPS));
        FlowRuleManager.loadRules(flow);

        List<DegradeRule> breakers = new ArrayList<>();
        breakers.add(breaker(PASS_RESOURCE));
        breakers.add(breaker(BLOCK_RESOURCE));
        DegradeRuleManager.loadRules(breakers);

        mustPass();
        mustBlock();
    }

    static FlowRule flowRule(String resource, double qps) {
        FlowRule r = new FlowRule(resource);
        r.setGrade(RuleConstant.FLOW_GRADE_QPS);
        r.setCount(qps);
        r.setControlBehavior(RuleConstant.CONTROL_BEHAVIOR_DEFAULT);
        return r;
    }

    static DegradeRule breaker(String resource) {
        DegradeRule r = new DegradeRule(resource);
        r.setGrade(RuleConstant.DEGRADE_GRADE_RT);
        r.setCount(SLOW_CALL_RT_MS);
        r.setSlowRatioThreshold(SLOW_RATIO_THRESHOLD);
        r.setMinRequestAmount(BREAKER_MIN_REQUESTS);
        r.setStatIntervalMs(BREAKER_WINDOW_MS);
        r.setTimeWindow(BREAKER_OPEN_FOR_SEC);
        return r;
    }

    /** One guarded call: true when admitted (and exited), false when the flow rule refused it. */
    static boolean pass(String resource) {
        Entry e;
        try {
            e = SphU.entry(resource);
        } catch (FlowException ex) {
            return false;
        } catch (BlockException ex) {
            throw new IllegalStateException(resource + " blocked by " + ex.getClass().getSimpleName());
        }
        e.exit();
        return true;
    }

    /** One admitted call, on one thread. */
    @Benchmark
    @Threads(1)
    public void pass1() {
        mustPass();
    }

    /** One call refused by the flow rule, on one thread. */
    @Benchmark
    @Threads(1)
    public void block1() {
        mustBlock();
    }

    /** pass1 on two threads sharing the resource (Go's PassParallel at -cpu 2). */
    @Benchmark
    @Threads(2)
    public void passParallel() {
        mustPass();
    }

    /** block1 on two threads sharing the resource (Go's BlockParallel at -cpu 2). */
    @Benchmark
    @Threads(2)
    public void blockParallel() {
        mustBlock();
    }

    /** Fails the benchmark when a pass call is refused, so no figure comes from the wrong path. */
    static void mustPass() {
        if (!pass(PASS_RESOURCE)) {
            throw new IllegalStateException(PASS_RESOURCE + " was blocked");
        }
    }

    /** Fails the benchmark when a block call is admitted. */
    static void mustBlock() {
        if (pass(BLOCK_RESOURCE)) {
            throw new IllegalStateException(BLOCK_RESOURCE + " was admitted");
        }
    }
}
