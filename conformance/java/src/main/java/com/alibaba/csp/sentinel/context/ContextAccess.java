package com.alibaba.csp.sentinel.context;

/**
 * Reaches ContextUtil.replaceContext, which is package-private: the driver
 * keeps one Context per open entry, so entries of one scenario can end in
 * any order, as calls on different goroutines do.
 */
public final class ContextAccess {
    private ContextAccess() {}

    /** Installs c (null for none) as the thread's context, returning the old one. */
    public static Context replace(Context c) {
        return ContextUtil.replaceContext(c);
    }
}
