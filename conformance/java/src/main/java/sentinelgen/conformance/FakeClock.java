package sentinelgen.conformance;

/**
 * The scenario clock. ClockAgent points Sentinel's time reads and the rate
 * limiter's sleeps here, so time moves only when the scenario says so, or
 * when Sentinel waits on the driver thread: a wait then moves the clock by
 * exactly the time asked for, as the Go runtime's ManualClock does.
 */
public final class FakeClock {
    private static volatile long nanos;
    /** The thread replaying scenarios; waits on other threads stay real. */
    private static volatile Thread driver;

    private FakeClock() {}

    static void drive(long startNanos) {
        driver = Thread.currentThread();
        nanos = startNanos;
    }

    static long now() {
        return nanos;
    }

    static void set(long n) {
        if (n < nanos) {
            throw new IllegalStateException("time moving backwards");
        }
        nanos = n;
    }

    /** Replaces TimeUtil.currentTimeMillis(). */
    public static long currentTimeMillis() {
        return nanos / 1_000_000L;
    }

    /** Replaces System.nanoTime() in the flow controllers. */
    public static long nanoTime() {
        return nanos;
    }

    /** Replaces Thread.sleep(long) in the flow controllers. */
    public static void sleep(long ms) throws InterruptedException {
        if (Thread.currentThread() != driver) {
            Thread.sleep(ms);
            return;
        }
        if (ms > 0) {
            nanos += ms * 1_000_000L;
        }
    }

    /** Replaces LockSupport.parkNanos(long) in the flow controllers. */
    /**
     * TimeUnit.sleep(long), as the hot-parameter rate limiter calls it
     * (TimeUnit.MILLISECONDS.sleep): the receiver comes first.
     */
    public static void sleepIn(java.util.concurrent.TimeUnit unit, long d) throws InterruptedException {
        parkNanos(unit.toNanos(d));
    }

    public static void parkNanos(long ns) {
        if (Thread.currentThread() != driver) {
            java.util.concurrent.locks.LockSupport.parkNanos(ns);
            return;
        }
        if (ns > 0) {
            nanos += ns;
        }
    }
}
