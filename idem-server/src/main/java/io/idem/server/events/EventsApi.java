package io.idem.server.events;

import io.idem.core.spi.EventReads;
import io.idem.server.http.Auth;
import io.idem.server.http.Caller;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/events}, the event stream, and {@code GET /v1/chat/attempts}, the chat audit:
 * newest first, filtered, a page at a time. Any key may read; a client key reads only its own.
 */
public final class EventsApi implements Feature {
    private final Auth auth;
    private final EventReads reads;

    public EventsApi(Auth auth, EventReads reads) {
        this.auth = auth;
        this.reads = reads;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/events", this::events);
        config.routes.get("/v1/chat/attempts", this::attempts);
    }

    private void events(Context ctx) {
        Caller caller = auth.require(ctx);
        EventQuery query = EventQuery.read(ctx.queryParamMap(), caller.ownerScope());
        EventReads.Page page = reads.events(query.filter(), query.after(), query.limit());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.events().stream().map(EventJson::event).toList());
        body.put("next_cursor", page.next().map(EventQuery::encode).orElse(null));
        Json.write(ctx, body);
    }

    private void attempts(Context ctx) {
        Caller caller = auth.require(ctx);
        AttemptQuery query = AttemptQuery.read(ctx.queryParamMap(), caller.ownerScope());
        EventReads.AttemptPage page = reads.chatAttempts(query.filter(), query.after(), query.limit());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.attempts().stream().map(EventJson::attempt).toList());
        body.put("next_cursor", page.next().map(AttemptQuery::encode).orElse(null));
        Json.write(ctx, body);
    }
}
