package io.idem.server.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A list route's query parameters, read strictly: a parameter the route does not know is {@code
 * 400 unknown_parameter} (a typo must not pass for a filter), one given twice that takes one value
 * is {@code 400 repeated_parameter}, and each value is checked for its own {@code 400
 * invalid_<name>}. An empty value counts as not given. Immutable.
 */
public final class QueryParams {
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    private final Map<String, List<String>> params;

    private QueryParams(Map<String, List<String>> params) {
        this.params = params;
    }

    /**
     * @param known every parameter the route reads
     * @param repeatable those that may be given more than once
     */
    public static QueryParams of(Map<String, List<String>> params, Set<String> known, Set<String> repeatable) {
        for (var entry : params.entrySet()) {
            if (!known.contains(entry.getKey())) {
                throw ApiError.badRequest(
                        "unknown_parameter",
                        "unknown query parameter '" + clip(entry.getKey()) + "'; known: "
                                + new java.util.TreeSet<>(known));
            }
            if (entry.getValue().size() > 1 && !repeatable.contains(entry.getKey())) {
                throw ApiError.badRequest(
                        "repeated_parameter", "query parameter '" + entry.getKey() + "' may be given once");
            }
        }
        return new QueryParams(Map.copyOf(params));
    }

    /** The value of a parameter given once, if it was given and is not empty. */
    public Optional<String> one(String name) {
        List<String> values = params.getOrDefault(name, List.of());
        return values.isEmpty() || values.getFirst().isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /**
     * Every value of a repeatable parameter, comma lists split. An empty value counts as not given;
     * an empty item in a list ({@code a,,b}, {@code a,}) is {@code 400 invalid_<name>}.
     */
    public List<String> all(String name) {
        List<String> out = new ArrayList<>();
        for (String value : params.getOrDefault(name, List.of())) {
            if (value.isEmpty()) {
                continue;
            }
            for (String part : value.split(",", -1)) {
                if (part.isEmpty()) {
                    throw ApiError.badRequest("invalid_" + name, name + " must be a comma list without empty items");
                }
                out.add(part);
            }
        }
        return out;
    }

    /** {@code limit}: 1..200, by default 50. */
    public int limit() {
        return limit(one("limit").orElse(null));
    }

    /** A page size as a client gave it: 1..200, by default ({@code null}) 50; else {@code 400 invalid_limit}. */
    public static int limit(String value) {
        if (value == null) {
            return DEFAULT_LIMIT;
        }
        if (!value.matches("\\d{1,3}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > MAX_LIMIT) {
            throw ApiError.badRequest("invalid_limit", "limit must be 1.." + MAX_LIMIT);
        }
        return Integer.parseInt(value);
    }

    /** An ISO-8601 instant between 1970 and 9999 ({@code 2026-01-31T12:00:00Z}). */
    public Optional<Instant> time(String name) {
        return one(name).map(value -> {
            try {
                return Cursors.time(value);
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest(
                        "invalid_" + name, name + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z");
            }
        });
    }

    /** A canonical UUID. */
    public Optional<UUID> uuid(String name) {
        return one(name)
                .map(value -> Ids.uuid(value)
                        .orElseThrow(() -> ApiError.badRequest("invalid_" + name, name + " must be a UUID")));
    }

    private static String clip(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= 40 ? printable : printable.substring(0, 40) + "…";
    }
}
