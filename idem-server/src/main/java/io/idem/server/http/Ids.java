package io.idem.server.http;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Reads ids a client sends (paths, cursors, signed references) in their one canonical form. */
public final class Ids {
    private static final Pattern CANONICAL =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Ids() {}

    /**
     * {@code text} as a UUID when it is one in the canonical 8-4-4-4-12 form; empty otherwise
     * ({@link UUID#fromString} alone also takes shortened forms such as {@code 1-1-1-1-1}).
     */
    public static Optional<UUID> uuid(String text) {
        if (text == null || !CANONICAL.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(UUID.fromString(text));
    }

    /** The job, key, asset… named by path parameter {@code id}, or a 404 naming {@code what}. */
    public static UUID pathId(io.javalin.http.Context ctx, String what) {
        return uuid(ctx.pathParam("id")).orElseThrow(() -> ApiError.notFound(what));
    }
}
