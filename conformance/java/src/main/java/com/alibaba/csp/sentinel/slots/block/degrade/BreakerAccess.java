package com.alibaba.csp.sentinel.slots.block.degrade;

import java.util.ArrayList;
import java.util.List;

import com.alibaba.csp.sentinel.slots.block.degrade.circuitbreaker.CircuitBreaker;

/** Reaches DegradeRuleManager.getCircuitBreakers, which is package-private. */
public final class BreakerAccess {
    private BreakerAccess() {}

    /** The breakers of resource, in load order, as the DegradeSlot checks them. */
    public static List<CircuitBreaker> of(String resource) {
        List<CircuitBreaker> cbs = DegradeRuleManager.getCircuitBreakers(resource);
        return cbs == null ? new ArrayList<>() : cbs;
    }
}
