package sentinelgen;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.cluster.ClusterStateManager;
import com.alibaba.csp.sentinel.cluster.TokenResult;
import com.alibaba.csp.sentinel.cluster.client.ClusterTokenClient;
import com.alibaba.csp.sentinel.cluster.client.TokenClientProvider;
import com.alibaba.csp.sentinel.cluster.client.config.ClusterClientAssignConfig;
import com.alibaba.csp.sentinel.cluster.client.config.ClusterClientConfig;
import com.alibaba.csp.sentinel.cluster.client.config.ClusterClientConfigManager;
import com.alibaba.csp.sentinel.cluster.flow.rule.ClusterFlowRuleManager;
import com.alibaba.csp.sentinel.cluster.flow.rule.ClusterParamFlowRuleManager;
import com.alibaba.csp.sentinel.cluster.registry.ConfigSupplierRegistry;
import com.alibaba.csp.sentinel.cluster.server.ClusterTokenServer;
import com.alibaba.csp.sentinel.cluster.server.SentinelDefaultTokenServer;
import com.alibaba.csp.sentinel.cluster.server.config.ClusterServerConfigManager;
import com.alibaba.csp.sentinel.cluster.server.config.ServerFlowConfig;
import com.alibaba.csp.sentinel.cluster.server.config.ServerTransportConfig;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.csp.sentinel.slots.block.flow.param.ParamFlowRule;
import com.alibaba.fastjson.JSON;

/**
 * Sentinel's own token server and client, driven by the Go tests over
 * stdin/stdout, one command per line, one answer line per command:
 *
 * <pre>
 * server PORT          Java's standalone token server on PORT; then
 *                        rules NAMESPACE JSON   load cluster flow rules        -> ok
 *                        paramrules NAMESPACE JSON   load cluster param rules  -> ok
 *                        flowconfig JSON        load the global flow config    -> ok
 * client HOST PORT NAMESPACE TIMEOUT_MS
 *                      Java's token client; prints "connected" once it is; then
 *                        flow FLOWID ACQUIRE PRIORITIZED -> STATUS REMAINING WAIT
 *                        param FLOWID ACQUIRE V[,V...]    -> STATUS REMAINING WAIT
 *                          (each V is s:TEXT, l:LONG, i:INT, d:DOUBLE or b:BOOL)
 * app HOST PORT NAMESPACE RULES_JSON RATE SECONDS START_MS
 *                      an instance of an application whose flow rules are in
 *                      cluster mode: from START_MS (Unix milliseconds, a whole
 *                      second) it offers RATE calls per second to each rule's
 *                      resource for SECONDS and prints "second N RESOURCE pass P
 *                      block B" for each whole second N and resource
 * </pre>
 */
public final class ClusterHarness {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "server":
                server(Integer.parseInt(args[1]));
                break;
            case "client":
                client(args[1], Integer.parseInt(args[2]), args[3], Integer.parseInt(args[4]));
                break;
            case "app":
                app(args[1], Integer.parseInt(args[2]), args[3], args[4], Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                    Long.parseLong(args[7]));
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.exit(0);
    }

    private static BufferedReader stdin() {
        return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }

    private static void server(int port) throws Exception {
        ClusterServerConfigManager.loadGlobalTransportConfig(new ServerTransportConfig().setIdleSeconds(600).setPort(port));
        ClusterTokenServer server = new SentinelDefaultTokenServer();
        server.start();
        System.out.println("started");
        System.out.flush();
        BufferedReader in = stdin();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ", 3);
            switch (f[0]) {
                case "rules":
                    HashSet<String> set = new HashSet<>(ClusterServerConfigManager.getNamespaceSet());
                    set.add(f[1]);
                    ClusterServerConfigManager.loadServerNamespaceSet(set);
                    List<FlowRule> rules = JSON.parseArray(f[2], FlowRule.class);
                    ClusterFlowRuleManager.loadRules(f[1], rules);
                    break;
                case "paramrules":
                    HashSet<String> pset = new HashSet<>(ClusterServerConfigManager.getNamespaceSet());
                    pset.add(f[1]);
                    ClusterServerConfigManager.loadServerNamespaceSet(pset);
                    ClusterParamFlowRuleManager.loadRules(f[1], JSON.parseArray(f[2], ParamFlowRule.class));
                    break;
                case "flowconfig":
                    ClusterServerConfigManager.loadGlobalFlowConfig(JSON.parseObject(line.substring("flowconfig ".length()), ServerFlowConfig.class));
                    break;
                default:
                    System.out.println("unknown command " + f[0]);
                    continue;
            }
            System.out.println("ok");
            System.out.flush();
        }
        server.stop();
    }

    private static void joinCluster(String host, int port, String namespace, int timeoutMs) throws Exception {
        ConfigSupplierRegistry.setNamespaceSupplier(() -> namespace);
        ClusterClientConfigManager.applyNewConfig(new ClusterClientConfig().setRequestTimeout(timeoutMs));
        ClusterClientConfigManager.applyNewAssignConfig(new ClusterClientAssignConfig(host, port));
        ClusterStateManager.applyState(ClusterStateManager.CLUSTER_CLIENT);
        long deadline = System.currentTimeMillis() + 20000;
        for (;;) {
            ClusterTokenClient c = TokenClientProvider.getClient();
            if (c != null && c.getState() == 2) { // ClientConstants.CLIENT_STATUS_STARTED
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("token client not started within 20 s");
            }
            Thread.sleep(10);
        }
    }

    private static void client(String host, int port, String namespace, int timeoutMs) throws Exception {
        joinCluster(host, port, namespace, timeoutMs);
        System.out.println("connected");
        System.out.flush();
        ClusterTokenClient c = TokenClientProvider.getClient();
        BufferedReader in = stdin();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ");
            TokenResult r;
            if (f[0].equals("flow")) {
                r = c.requestToken(Long.parseLong(f[1]), Integer.parseInt(f[2]), Boolean.parseBoolean(f[3]));
            } else if (f[0].equals("param")) {
                List<Object> values = new ArrayList<>();
                for (String v : f[3].split(",")) {
                    String text = v.substring(2);
                    switch (v.charAt(0)) {
                        case 'l': values.add(Long.parseLong(text)); break;
                        case 'i': values.add(Integer.parseInt(text)); break;
                        case 'd': values.add(Double.parseDouble(text)); break;
                        case 'b': values.add(Boolean.parseBoolean(text)); break;
                        default: values.add(text);
                    }
                }
                r = c.requestParamToken(Long.parseLong(f[1]), Integer.parseInt(f[2]), values);
            } else {
                System.out.println("unknown command " + f[0]);
                continue;
            }
            System.out.println(r.getStatus() + " " + r.getRemaining() + " " + r.getWaitInMs());
            System.out.flush();
        }
    }

    private static void app(String host, int port, String namespace, String rulesJSON, int rate, int seconds, long start) throws Exception {
        List<FlowRule> rules = JSON.parseArray(rulesJSON, FlowRule.class);
        FlowRuleManager.loadRules(rules);
        joinCluster(host, port, namespace, 20);
        System.out.println("connected");
        System.out.flush();
        long wait = start - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        int n = rules.size();
        int[][] pass = new int[n][seconds];
        int[][] block = new int[n][seconds];
        // One thread per resource, so that a slow answer for one does not
        // hold back the calls of the other.
        Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            final int i = r;
            threads[i] = new Thread(() -> offer(rules.get(i).getResource(), rate, seconds, start, pass[i], block[i]));
            threads[i].start();
        }
        for (Thread th : threads) {
            th.join();
        }
        for (int s = 0; s < seconds; s++) {
            for (int i = 0; i < n; i++) {
                System.out.println("second " + (start / 1000 + s) + " " + rules.get(i).getResource() + " pass " + pass[i][s] + " block " + block[i][s]);
            }
        }
        System.out.flush();
    }

    private static void offer(String resource, int rate, int seconds, long start, int[] pass, int[] block) {
        long intervalNs = 1_000_000_000L / rate;
        long next = System.nanoTime();
        for (;;) {
            int sec = (int) ((System.currentTimeMillis() - start) / 1000);
            if (sec >= seconds) {
                return;
            }
            Entry e = null;
            try {
                e = SphU.entry(resource);
                pass[sec]++;
            } catch (BlockException ex) {
                block[sec]++;
            } finally {
                if (e != null) {
                    e.exit();
                }
            }
            next += intervalNs;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                } catch (InterruptedException ex) {
                    return;
                }
            }
        }
    }
}
