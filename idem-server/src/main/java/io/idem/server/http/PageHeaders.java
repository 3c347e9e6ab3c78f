package io.idem.server.http;

import io.javalin.http.Context;

/** The headers every HTML page is sent with: its Content-Security-Policy, no sniffing, no framing, no referrer. */
public final class PageHeaders {
    private PageHeaders() {}

    /** Sets the page's {@code csp} and the strict headers around it; {@code cacheControl} as the page needs. */
    public static void strict(Context ctx, String csp, String cacheControl) {
        ctx.header("Content-Security-Policy", csp)
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", cacheControl);
    }
}
