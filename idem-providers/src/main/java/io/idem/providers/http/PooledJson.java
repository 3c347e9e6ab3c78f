package io.idem.providers.http;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * JSON mappers whose read and write buffers are shared across threads. Jackson keeps them per
 * thread by default, and Idem runs every request and every vendor call on a new virtual thread, so
 * each parse and each write took fresh buffers: about a sixth of what a chat call allocated. One
 * bounded pool shared by every mapper on a hot path reuses them. Thread-safe.
 */
public final class PooledJson {
    /** The pool every hot mapper takes its buffers from. */
    public static final RecyclerPool<BufferRecycler> BUFFERS = JsonRecyclerPools.sharedBoundedPool();

    private PooledJson() {}

    /** A factory builder that takes its buffers from {@link #BUFFERS}; add features, then build. */
    public static JsonFactoryBuilder factory() {
        return new JsonFactoryBuilder().recyclerPool(BUFFERS);
    }

    /** A mapper with Jackson's defaults whose buffers come from {@link #BUFFERS}. */
    public static ObjectMapper mapper() {
        return new ObjectMapper(factory().build());
    }
}
