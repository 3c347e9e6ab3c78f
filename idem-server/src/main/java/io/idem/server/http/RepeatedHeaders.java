package io.idem.server.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * Refuses a request that carries a security-relevant header more than once. Servers and proxies
 * disagree on which copy wins (first, last, or both joined by a comma), so a repeated {@code
 * Authorization} could authenticate as one key here and another behind a proxy, and a repeated
 * {@code Idempotency-Key} could deduplicate against a key the client did not mean.
 */
final class RepeatedHeaders {
    static final List<String> SINGLE = List.of("Authorization", "Idempotency-Key");

    private RepeatedHeaders() {}

    static void install(JavalinConfig config) {
        config.routes.before(RepeatedHeaders::refuseRepeats);
    }

    static void refuseRepeats(Context ctx) {
        for (String name : SINGLE) {
            var values = ctx.req().getHeaders(name);
            // Every request passes here: look at no more than the second value, copy nothing.
            if (values != null
                    && values.hasMoreElements()
                    && values.nextElement() != null
                    && values.hasMoreElements()) {
                throw ApiError.badRequest("repeated_header", "send the " + name + " header once, not several times");
            }
        }
    }
}
