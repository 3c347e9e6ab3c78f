package io.idem.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.idem.server.auth.KeyService;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** {@code /v1/admin/keys}: create (the secret is shown once), list, revoke. Admin only. */
public final class AdminKeysApi {
    private final Auth auth;
    private final KeyService keys;

    public AdminKeysApi(Auth auth, KeyService keys) {
        this.auth = auth;
        this.keys = keys;
    }

    public void install(JavalinConfig config) {
        config.routes.post("/v1/admin/keys", this::create);
        config.routes.get("/v1/admin/keys", this::list);
        config.routes.delete("/v1/admin/keys/{id}", this::revoke);
    }

    private void create(Context ctx) {
        auth.require(ctx, Role.ADMIN);
        JsonNode body = Json.readObject(ctx, 16 * 1024);
        String owner = JobRequests.text(body, "owner", null);
        if (!KeyService.validOwner(owner)) {
            throw ApiError.badRequest("invalid_owner", "owner must be 1..64 of letters, digits, '.', '_', '@', '-'");
        }
        Role role;
        try {
            role = Role.fromWire(JobRequests.text(body, "role", "client"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("invalid_role", e.getMessage());
        }
        KeyService.Issued issued = keys.issue(owner, role);
        Map<String, Object> out = render(issued.key());
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
        UUID id;
        try {
            id = UUID.fromString(ctx.pathParam("id"));
        } catch (IllegalArgumentException e) {
            throw ApiError.notFound("key");
        }
        if (!keys.revoke(id)) {
            throw ApiError.notFound("key");
        }
        ctx.status(204);
    }

    static Map<String, Object> render(ApiKey key) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", key.id().toString());
        out.put("prefix", key.prefix());
        out.put("owner", key.owner());
        out.put("role", key.role().wire());
        out.put("created_at", key.createdAt().toString());
        out.put("revoked_at", key.revokedAt().map(Object::toString).orElse(null));
        return out;
    }
}
