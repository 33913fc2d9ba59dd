package sentinelgen.conformance;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

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

    private static String read(String file) throws Exception {
        return new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
    }

    private static void usage() {
        System.err.println("usage: Main replay START_MS GAP_MS FILE... | Main rules FILE...");
        System.exit(2);
    }
}
