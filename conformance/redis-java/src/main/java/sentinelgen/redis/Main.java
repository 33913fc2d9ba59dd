package sentinelgen.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.alibaba.csp.sentinel.datasource.Converter;
import com.alibaba.csp.sentinel.datasource.ReadableDataSource;
import com.alibaba.csp.sentinel.datasource.redis.RedisDataSource;
import com.alibaba.csp.sentinel.datasource.redis.config.RedisConnectionConfig;
import com.alibaba.csp.sentinel.property.PropertyListener;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRule;
import com.alibaba.csp.sentinel.slots.block.flow.FlowRuleManager;
import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.TypeReference;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Java service on Sentinel's RedisDataSource, driven by the Go test.
 *
 * <p>Arguments: HOST PORT KEY CHANNEL. It registers a RedisDataSource of flow
 * rules on KEY and CHANNEL with FlowRuleManager and prints
 * {@code RULES <json>}, the flow rules in force as fastjson writes them,
 * at start and after every change the data source delivers.
 *
 * <p>Standard input: {@code WRITE <json>} stores the rules in KEY and
 * publishes them on CHANNEL in one MULTI/EXEC, the way Sentinel's README
 * tells writers to, then prints {@code WROTE}; EOF exits.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String key = args[2];
        String channel = args[3];

        Converter<String, List<FlowRule>> parser =
            source -> JSON.parseObject(source, new TypeReference<List<FlowRule>>() {});
        RedisConnectionConfig config = RedisConnectionConfig.builder()
            .withHost(host).withPort(port).withTimeout(3000).build();
        ReadableDataSource<String, List<FlowRule>> ds = new RedisDataSource<>(config, key, channel, parser);
        FlowRuleManager.register2Property(ds.getProperty());
        ds.getProperty().addListener(new PropertyListener<List<FlowRule>>() {
            @Override
            public void configUpdate(List<FlowRule> value) {
                print();
            }

            @Override
            public void configLoad(List<FlowRule> value) {
                print();
            }
        });

        RedisClient client = RedisClient.create(RedisURI.create(host, port));
        StatefulRedisConnection<String, String> conn = client.connect();
        RedisCommands<String, String> cmd = conn.sync();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("WRITE ")) {
                String value = line.substring("WRITE ".length());
                cmd.multi();
                cmd.set(key, value);
                cmd.publish(channel, value);
                cmd.exec();
                System.out.println("WROTE");
                System.out.flush();
            }
        }
        conn.close();
        client.shutdown();
        ds.close();
        System.exit(0);
    }

    private static synchronized void print() {
        System.out.println("RULES " + JSON.toJSONString(FlowRuleManager.getRules()));
        System.out.flush();
    }
}
