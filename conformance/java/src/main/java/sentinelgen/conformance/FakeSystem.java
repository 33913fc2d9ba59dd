package sentinelgen.conformance;

import com.alibaba.csp.sentinel.slots.system.SystemStatusListener;

/**
 * The scenario's system readings. ClockAgent rewrites SystemRuleManager so
 * that getCurrentSystemAvgLoad() and getCurrentCpuUsage(), which read
 * SystemStatusListener's fields (refreshed from the machine once a second
 * by Sentinel's own scheduler), read these instead. The listener keeps
 * running and sampling; nothing in the check path reads what it samples.
 * Both start, and are reset between scenarios, at -1: the listener's own
 * initial values, which the Go runtime also uses for "unknown".
 */
public final class FakeSystem {
    private static volatile double load = -1;
    private static volatile double cpu = -1;

    private FakeSystem() {}

    static void set(double l, double c) {
        load = l;
        cpu = c;
    }

    static double load() {
        return load;
    }

    static double cpu() {
        return cpu;
    }

    /** Replaces SystemStatusListener.getSystemAverageLoad() (the receiver comes first). */
    public static double systemAverageLoad(SystemStatusListener ignored) {
        return load;
    }

    /** Replaces SystemStatusListener.getCpuUsage() (the receiver comes first). */
    public static double cpuUsage(SystemStatusListener ignored) {
        return cpu;
    }
}
