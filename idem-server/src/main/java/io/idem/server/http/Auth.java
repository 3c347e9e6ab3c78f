package io.idem.server.http;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.javalin.http.Context;
import java.util.Optional;

/** Bearer-key authentication and role checks for {@code /v1}. Thread-safe. */
public final class Auth {
    private static final String CALLER = "idem.caller";
    private final Keys keys;

    /** Finds the live key behind a secret; empty for an unknown or revoked one. Thread-safe. */
    @FunctionalInterface
    public interface Keys {
        Optional<ApiKey> authenticate(String secret);
    }

    public Auth(Keys keys) {
        this.keys = keys;
    }

    /** Authenticates the request (401 without a valid key) and remembers the caller. */
    public Caller require(Context ctx) {
        Object known = ctx.attribute(CALLER);
        if (known instanceof Caller caller) {
            return caller;
        }
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiError(401, "unauthenticated", "send Authorization: Bearer <api key>");
        }
        Caller caller = keys.authenticate(header.substring(7).trim())
                .map(Caller::new)
                .orElseThrow(() -> new ApiError(401, "invalid_api_key", "the API key is unknown or revoked"));
        ctx.attribute(CALLER, caller);
        return caller;
    }

    /** Authenticates and demands one of the given roles (403 otherwise). */
    public Caller require(Context ctx, Role... roles) {
        Caller caller = require(ctx);
        for (Role role : roles) {
            if (caller.role() == role) {
                return caller;
            }
        }
        throw new ApiError(403, "forbidden", "this needs a key with role " + java.util.Arrays.toString(roles));
    }
}
