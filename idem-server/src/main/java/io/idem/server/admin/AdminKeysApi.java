package io.idem.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.idem.server.auth.KeyService;
import io.idem.server.http.ApiError;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.idem.server.http.Ids;
import io.idem.server.http.Json;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** {@code /v1/admin/keys}: create (the secret is shown once), list, revoke. Admin only. */
public final class AdminKeysApi implements Feature {
    private final Auth auth;
    private final KeyService keys;
    private final java.util.function.Predicate<String> chatModels;

    /** {@code chatModels}: whether a chat model is offered, for the models a key's failover defaults name. */
    public AdminKeysApi(Auth auth, KeyService keys, java.util.function.Predicate<String> chatModels) {
        this.auth = auth;
        this.keys = keys;
        this.chatModels = chatModels;
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.post("/v1/admin/keys", this::create);
        config.routes.get("/v1/admin/keys", this::list);
        config.routes.delete("/v1/admin/keys/{id}", this::revoke);
        config.routes.patch("/v1/admin/keys/{id}", this::update);
    }

    private void create(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        JsonNode body = Json.readObject(ctx, 16 * 1024);
        Json.refuseUnknown(body, CREATE_FIELDS);
        String owner = Json.text(body, "owner", null);
        if (!KeyService.validOwner(owner)) {
            throw ApiError.badRequest("invalid_owner", "owner must be 1..64 of letters, digits, '.', '_', '@', '-'");
        }
        Role role;
        try {
            role = Role.fromWire(Json.text(body, "role", "client"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("invalid_role", e.getMessage());
        }
        java.util.Optional<java.time.Duration> dedupe = dedupeWindow(body);
        KeyService.Issued issued = keys.issue(owner, role);
        ApiKey key = dedupe == null
                ? issued.key()
                : keys.update(
                                issued.key().id(),
                                new io.idem.core.spi.ApiKeys.Attributes(null, null, null, null, null, dedupe))
                        .orElseThrow();
        Map<String, Object> out = render(key);
        out.put("key", issued.secret());
        ctx.status(201);
        Json.write(ctx, out);
    }

    private void list(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        Json.write(
                ctx,
                Map.of("data", keys.list().stream().map(AdminKeysApi::render).toList()));
    }

    private void revoke(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        UUID id = Ids.pathId(ctx, "key");
        if (!keys.revoke(id)) {
            throw ApiError.notFound("key");
        }
        ctx.status(204);
    }

    private static final java.util.Set<String> CREATE_FIELDS = java.util.Set.of("owner", "role", "dedupe_window");

    /** The longest opt-in dedupe window, in seconds (one day; documented in docs/api.md). */
    static final int MAX_DEDUPE_WINDOW_SECONDS = 86_400;

    /**
     * {@code dedupe_window}: {@code null} when absent (leave as is), empty for JSON null (clear), else
     * whole seconds 1..{@value #MAX_DEDUPE_WINDOW_SECONDS}.
     */
    private static java.util.Optional<java.time.Duration> dedupeWindow(JsonNode body) {
        if (!body.has("dedupe_window")) {
            return null;
        }
        JsonNode node = body.get("dedupe_window");
        if (node.isNull()) {
            return java.util.Optional.empty();
        }
        if (!node.isIntegralNumber()
                || !node.canConvertToInt()
                || node.asInt() < 1
                || node.asInt() > MAX_DEDUPE_WINDOW_SECONDS) {
            throw ApiError.badRequest(
                    "invalid_dedupe_window",
                    "dedupe_window must be whole seconds 1.." + MAX_DEDUPE_WINDOW_SECONDS + " or null, was " + node);
        }
        return java.util.Optional.of(java.time.Duration.ofSeconds(node.asInt()));
    }

    private static final java.util.Set<String> ATTRIBUTES = java.util.Set.of(
            "adult_approved",
            "jurisdiction",
            "daily_budget_usd",
            "monthly_budget_usd",
            "failover_defaults",
            "dedupe_window");

    private void update(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        UUID id = Ids.pathId(ctx, "key");
        JsonNode body = Json.readObject(ctx, 16 * 1024);
        Json.refuseUnknown(body, ATTRIBUTES);
        Boolean adult = null;
        if (body.has("adult_approved")) {
            if (!body.get("adult_approved").isBoolean()) {
                throw ApiError.badRequest("invalid_adult_approved", "adult_approved must be true or false");
            }
            adult = body.get("adult_approved").asBoolean();
        }
        java.util.Optional<String> jurisdiction = null;
        if (body.has("jurisdiction")) {
            JsonNode j = body.get("jurisdiction");
            if (!j.isNull() && (!j.isTextual() || !j.asText().matches("[a-z]{2,16}"))) {
                throw ApiError.badRequest(
                        "invalid_jurisdiction", "jurisdiction must be a short lower-case code such as eu, or null");
            }
            jurisdiction = j.isNull() ? java.util.Optional.empty() : java.util.Optional.of(j.asText());
        }
        var updated = keys.update(
                id,
                new io.idem.core.spi.ApiKeys.Attributes(
                        adult,
                        jurisdiction,
                        money(body, "daily_budget_usd"),
                        money(body, "monthly_budget_usd"),
                        // the chat chain used when a call names none (validated: up to 3 models, timeouts, on)
                        body.has("failover_defaults")
                                ? io.idem.server.chat.FailoverDefaultsJson.validate(
                                        body.get("failover_defaults"), chatModels)
                                : null,
                        dedupeWindow(body)));
        Json.write(ctx, render(updated.orElseThrow(() -> ApiError.notFound("key"))));
    }

    /** The largest budget a key may carry, in USD (documented in docs/security.md). */
    static final java.math.BigDecimal MAX_BUDGET_USD = new java.math.BigDecimal("1000000");

    /**
     * {@code null}: leave as is; empty: clear; else a positive amount of at most {@link
     * #MAX_BUDGET_USD} with at most 6 decimals, given as a JSON number or a decimal string.
     */
    private static java.util.Optional<java.math.BigDecimal> money(JsonNode body, String field) {
        if (!body.has(field)) {
            return null;
        }
        JsonNode node = body.get(field);
        if (node.isNull()) {
            return java.util.Optional.empty();
        }
        ApiError invalid = ApiError.badRequest(
                "invalid_" + field,
                field + " must be a positive amount in USD of at most " + MAX_BUDGET_USD.toPlainString()
                        + " with at most 6 decimals, or null");
        java.math.BigDecimal value;
        if (node.isNumber()) {
            if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue()) && !node.isBigDecimal()) {
                throw invalid;
            }
            value = node.decimalValue();
        } else if (node.isTextual() && node.textValue().matches("[0-9]{1,10}(\\.[0-9]{1,10})?")) {
            value = new java.math.BigDecimal(node.textValue());
        } else {
            throw invalid;
        }
        value = value.stripTrailingZeros();
        if (value.signum() <= 0 || value.compareTo(MAX_BUDGET_USD) > 0 || value.scale() > 6) {
            throw invalid;
        }
        return java.util.Optional.of(value);
    }

    private static JsonNode jsonOf(String stored) {
        try {
            return Json.MAPPER.readTree(stored);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Map<String, Object> render(ApiKey key) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", key.id().toString());
        out.put("prefix", key.prefix());
        out.put("owner", key.owner());
        out.put("role", key.role().wire());
        out.put("created_at", key.createdAt().toString());
        out.put("revoked_at", key.revokedAt().map(Object::toString).orElse(null));
        out.put("adult_approved", key.adultApproved());
        out.put("jurisdiction", key.jurisdiction().orElse(null));
        out.put(
                "daily_budget_usd",
                key.dailyBudgetUsd()
                        .map(b -> b.stripTrailingZeros().toPlainString())
                        .orElse(null));
        out.put(
                "monthly_budget_usd",
                key.monthlyBudgetUsd()
                        .map(b -> b.stripTrailingZeros().toPlainString())
                        .orElse(null));
        out.put(
                "failover_defaults",
                key.failoverDefaults().map(AdminKeysApi::jsonOf).orElse(null));
        out.put("dedupe_window", key.dedupeWindow().map(Duration::toSeconds).orElse(null));
        return out;
    }
}
