package sentinelgen.conformance;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import com.alibaba.csp.sentinel.slots.system.SystemRuleManager;

/**
 * Entry point of the Java side of the conformance comparison.
 *
 * <pre>
 * java -javaagent:conformance.jar -cp ... sentinelgen.conformance.Main replay START_MS GAP_MS FILE...
 * java -cp ... sentinelgen.conformance.Main rules FILE...
 * </pre>
 *
 * replay runs each scenario file through sentinel-core (see Replay), the
 * k-th starting at START_MS + k * GAP_MS on the scenario clock; rules reads
 * each Sentinel JSON document with fastjson (see RuleDocs). Both print to
 * standard output, which the Go test reads.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        List<String> files = new ArrayList<>();
        switch (args[0]) {
            case "replay":
                if (args.length < 3) {
                    usage();
                }
                long start = Long.parseLong(args[1]);
                long gap = Long.parseLong(args[2]);
                for (int i = 3; i < args.length; i++) {
                    files.add(args[i]);
                }
                FakeClock.drive(start * 1_000_000L);
                checkReadingsRewritten();
                Replay replay = new Replay(System.out);
                for (int k = 0; k < files.size(); k++) {
                    String f = files.get(k);
                    replay.run(f, read(f), (start + k * gap) * 1_000_000L);
                }
                break;
            case "rules":
                for (int i = 1; i < args.length; i++) {
                    System.out.println(RuleDocs.describe(args[i], read(args[i])));
                }
                break;
            default:
                usage();
        }
        System.out.flush();
        // Sentinel's timer threads are not daemons everywhere; do not wait for them.
        System.exit(0);
    }

    /**
     * Fails unless SystemRuleManager reads FakeSystem: a rewriting that did
     * not take (the agent matches by name and says nothing) would leave the
     * load and CPU checks reading the machine, and the comparison would
     * depend on how busy it is.
     */
    private static void checkReadingsRewritten() {
        FakeSystem.set(12.5, 0.375);
        double load = SystemRuleManager.getCurrentSystemAvgLoad();
        double cpu = SystemRuleManager.getCurrentCpuUsage();
        FakeSystem.set(-1, -1);
        if (load != 12.5 || cpu != 0.375) {
            System.err.println("SystemRuleManager does not read the scenario's readings (load " + load + ", cpu " + cpu
                    + "): is the jar's ClockAgent loaded with -javaagent?");
            System.exit(1);
        }
    }

    private static String read(String file) throws Exception {
        return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
    }

    private static void usage() {
        System.err.println("usage: Main replay START_MS GAP_MS FILE... | Main rules FILE...");
        System.exit(2);
    }
}
