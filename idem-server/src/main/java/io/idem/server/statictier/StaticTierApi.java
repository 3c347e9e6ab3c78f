package io.idem.server.statictier;

import io.idem.core.domain.Role;
import io.idem.core.spi.ChatTraffic;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.idem.server.http.Json;
import io.idem.server.http.QueryParams;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /v1/admin/static-tier}: the most asked single-turn prompts of the last days with the
 * last answer a live model served for each, as a static tier's answers file would hold them, and
 * the share of those days' calls they would have covered. Reads what answer retention kept
 * ({@code chat.answer_retention_days}); with retention off there is nothing, and the answer says
 * so. Admin only.
 */
public final class StaticTierApi implements Feature {
    static final String PATH = "/v1/admin/static-tier";
    private static final int MAX_TOP = 1000;

    private final Auth auth;
    private final ChatTraffic traffic;
    private final Duration retention;
    private final InstantSource clock;

    public StaticTierApi(Auth auth, ChatTraffic traffic, Duration retention, InstantSource clock) {
        this.auth = auth;
        this.traffic = traffic;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get(PATH, this::candidates);
    }

    private void candidates(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        QueryParams params = QueryParams.of(ctx.queryParamMap(), Set.of("top", "days"), Set.of());
        int top = number(params, "top", 50, MAX_TOP);
        int days = number(params, "days", 7, 365);
        LocalDate to = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        LocalDate from = to.minusDays(days - 1L);
        List<ChatTraffic.Frequent> frequent = traffic.top(top, from, to);
        long calls = traffic.calls(from, to);
        long covered = frequent.stream().mapToLong(ChatTraffic.Frequent::calls).sum();
        Map<String, Object> coverage = new LinkedHashMap<>();
        coverage.put("calls", calls);
        coverage.put("covered", covered);
        coverage.put("ratio", calls == 0 ? null : Math.round(covered * 10_000.0 / calls) / 10_000.0);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("retention_days", retention.toDays());
        body.put("from", from.toString());
        body.put("to", to.toString());
        body.put("top", top);
        body.put(
                "answers",
                frequent.stream()
                        .map(f -> Map.of(
                                "prompt", f.prompt(), "answer", f.answer(), "model", f.model(), "calls", f.calls()))
                        .toList());
        body.put("coverage", coverage);
        Json.write(ctx, body);
    }

    private static int number(QueryParams params, String name, int fallback, int max) {
        String value = params.one(name).orElse(null);
        if (value == null) {
            return fallback;
        }
        if (!value.matches("\\d{1,4}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > max) {
            throw ApiError.badRequest("invalid_" + name, name + " must be 1.." + max);
        }
        return Integer.parseInt(value);
    }
}
