package sentinelgen.conformance;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;

import com.alibaba.csp.sentinel.slots.system.SystemStatusListener;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.MemberSubstitution;

/**
 * A Java agent (the jar's Premain-Class) that rewrites Sentinel's classes as
 * they load: every call of TimeUtil.currentTimeMillis() reads FakeClock, and
 * in the flow controllers (the rate limiter's and the prioritized entry's
 * waits, the hot-parameter rate limiter's) System.nanoTime(), Thread.sleep(long),
 * TimeUnit.sleep(long) and LockSupport.parkNanos(long) go to FakeClock too.
 * In SystemRuleManager, the reads of SystemStatusListener's load and CPU
 * usage go to FakeSystem, so a scenario scripts the readings.
 *
 * Mockito's mockStatic, which Sentinel's own tests use for TimeUtil, cannot
 * do the second half: it refuses System and Thread, and a mocked static only
 * holds on the thread that made it. Rewriting the call sites covers both.
 */
public final class ClockAgent {
    private ClockAgent() {}

    private static final String SYSTEM_RULE_MANAGER = "com.alibaba.csp.sentinel.slots.system.SystemRuleManager";

    /**
     * The sentinel-core 1.8.9 classes that read the time or wait on the
     * request path (found with a search for currentTimeMillis, nanoTime and
     * sleep in its sources), and the one that reads the system status.
     * Naming them keeps the rewriting fast: the agent does not look at any
     * other class.
     */
    private static final String[] TIMED = {
        "com.alibaba.csp.sentinel.Entry",
        "com.alibaba.csp.sentinel.node.StatisticNode",
        "com.alibaba.csp.sentinel.metric.extension.callback.MetricExitCallback",
        "com.alibaba.csp.sentinel.slots.statistic.StatisticSlot",
        "com.alibaba.csp.sentinel.slots.statistic.base.LeapArray",
        "com.alibaba.csp.sentinel.slots.statistic.metric.ArrayMetric",
        "com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.AbstractCircuitBreaker",
        "com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.ResponseTimeCircuitBreaker",
        "com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.ExceptionCircuitBreaker",
        "com.alibaba.csp.sentinel.slots.block.flow.FlowRuleChecker",
        "com.alibaba.csp.sentinel.slots.block.flow.controller.DefaultController",
        "com.alibaba.csp.sentinel.slots.block.flow.controller.ThrottlingController",
        "com.alibaba.csp.sentinel.slots.block.flow.controller.WarmUpController",
        "com.alibaba.csp.sentinel.slots.block.flow.controller.WarmUpRateLimiterController",
        // sentinel-parameter-flow-control 1.8.9: the token bucket and the
        // rate limiter (which waits with TimeUnit.sleep).
        "com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowChecker",
        // Its getCurrentSystemAvgLoad() and getCurrentCpuUsage() read the
        // listener; the rewriting below points them at FakeSystem.
        SYSTEM_RULE_MANAGER,
    };

    /** Installs the rewriting before Main loads any Sentinel class. */
    public static void premain(String args, Instrumentation inst) throws Exception {
        MemberSubstitution timeUtil = MemberSubstitution.relaxed()
                .method(named("currentTimeMillis").and(isDeclaredBy(named("com.alibaba.csp.sentinel.util.TimeUtil"))))
                .replaceWith(FakeClock.class.getMethod("currentTimeMillis"));
        MemberSubstitution waits = MemberSubstitution.relaxed()
                .method(named("nanoTime").and(isDeclaredBy(System.class)))
                .replaceWith(FakeClock.class.getMethod("nanoTime"))
                .method(named("sleep").and(takesArguments(long.class)).and(isDeclaredBy(Thread.class)))
                .replaceWith(FakeClock.class.getMethod("sleep", long.class))
                .method(named("parkNanos").and(takesArguments(long.class)).and(isDeclaredBy(java.util.concurrent.locks.LockSupport.class)))
                .replaceWith(FakeClock.class.getMethod("parkNanos", long.class))
                .method(named("sleep").and(takesArguments(long.class)).and(isDeclaredBy(java.util.concurrent.TimeUnit.class)))
                .replaceWith(FakeClock.class.getMethod("sleepIn", java.util.concurrent.TimeUnit.class, long.class));
        MemberSubstitution readings = MemberSubstitution.relaxed()
                .method(named("getSystemAverageLoad").and(isDeclaredBy(SystemStatusListener.class)))
                .replaceWith(FakeSystem.class.getMethod("systemAverageLoad", SystemStatusListener.class))
                .method(named("getCpuUsage").and(isDeclaredBy(SystemStatusListener.class)))
                .replaceWith(FakeSystem.class.getMethod("cpuUsage", SystemStatusListener.class));
        new AgentBuilder.Default()
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .disableClassFormatChanges()
                .ignore(not(namedOneOf(TIMED)))
                .type(namedOneOf(TIMED))
                .transform((builder, type, loader, module, domain) -> {
                    builder = builder.visit(timeUtil.on(any()));
                    if (type.getName().equals(SYSTEM_RULE_MANAGER)) {
                        builder = builder.visit(readings.on(any()));
                    }
                    if (type.getName().startsWith("com.alibaba.csp.sentinel.slots.block.flow.")) {
                        builder = builder.visit(waits.on(any()));
                    }
                    return builder;
                })
                .installOn(inst);
    }
}
