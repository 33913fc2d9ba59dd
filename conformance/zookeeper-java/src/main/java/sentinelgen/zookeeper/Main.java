package sentinelgen.zookeeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.alibaba.csp.sentinel.datasource.ReadableDataSource;
import com.alibaba.csp.sentinel.datasource.zookeeper.ZookeeperDataSource;
import com.alibaba.csp.sentinel.property.PropertyListener;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.TypeReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A Java Sentinel service reading its flow rules from ZooKeeper, driven by the
 * Go test: {@code java ... Main ADDR PATH}.
 *
 * <p>It registers Sentinel's ZookeeperDataSource on PATH as the flow rules'
 * property and prints "rules JSON" with the flow rules in force (FlowRuleManager)
 * each time the property changes, then "ready". Each stdin line "write JSON"
 * sets PATH's data through a Curator client of its own, as a Java writer would,
 * and prints "written"; EOF exits.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        String addr = args[0];
        String path = args[1];
        ReadableDataSource<String, List<FlowRule>> source = new ZookeeperDataSource<>(addr, path,
            text -> text == null || text.isEmpty() ? null : JSON.parseObject(text, new TypeReference<List<FlowRule>>() {}));
        FlowRuleManager.register2Property(source.getProperty());
        source.getProperty().addListener(new PropertyListener<List<FlowRule>>() {
            @Override
            public void configUpdate(List<FlowRule> value) {
                print();
            }

            @Override
            public void configLoad(List<FlowRule> value) {
                print();
            }
        });
        System.out.println("ready");
        System.out.flush();

        CuratorFramework writer = CuratorFrameworkFactory.newClient(addr, new ExponentialBackoffRetry(1000, 3));
        writer.start();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("write ")) {
                writer.setData().forPath(path, line.substring(6).getBytes(StandardCharsets.UTF_8));
                System.out.println("written");
                System.out.flush();
            }
        }
        writer.close();
        source.close();
        System.exit(0);
    }

    /** Prints the flow rules in force, after the manager's own listener took them. */
    private static synchronized void print() {
        System.out.println("rules " + JSON.toJSONString(FlowRuleManager.getRules()));
        System.out.flush();
    }
}
