package io.idem.server.status;

import io.idem.core.status.Standing;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.idem.server.http.PageHeaders;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The public status, without a key: {@code GET /v1/status} (JSON) and {@code GET /status} (a page
 * without scripts). Each service (a lane's job kind, and chat) is operational, degraded or down, with
 * since when; no provider, model, credential or price is named.
 */
public final class StatusApi implements Feature {
    private static final String CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final StatusBoard board;

    public StatusApi(StatusBoard board) {
        this.board = board;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/v1/status", this::json);
        config.routes.get("/status", this::page);
    }

    private void json(Context ctx) {
        StatusBoard.Board now = board.board();
        Map<String, Object> body = standing(now.overall());
        body.put("updated_at", now.at().toString());
        List<Map<String, Object>> services = now.services().stream()
                .map(s -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("lane", s.lane().orElse(null));
                    out.put("kind", s.kind());
                    out.putAll(standing(s.standing()));
                    return out;
                })
                .toList();
        body.put("services", services);
        ctx.header("Cache-Control", "no-cache");
        Json.write(ctx, body);
    }

    private static Map<String, Object> standing(Standing standing) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", standing.level().wire());
        out.put("since", standing.since().map(Object::toString).orElse(null));
        return out;
    }

    private void page(Context ctx) {
        PageHeaders.strict(ctx, CSP, "no-cache");
        ctx.html(StatusPage.render(board.board()));
    }
}
