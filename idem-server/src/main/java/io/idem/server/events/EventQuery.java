package io.idem.server.events;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.EventReads;
import io.idem.core.spi.EventSource;
import io.idem.server.http.ApiError;
import io.idem.server.http.Cursors;
import io.idem.server.http.QueryParams;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A request for a page of the event stream, read strictly from query parameters ({@code type}
 * repeatable or a comma list, {@code provider}, {@code job_id}, {@code since}, {@code until},
 * {@code limit}, {@code cursor}): what {@code GET /v1/events} and the console's Events page ask
 * {@link EventReads} for. {@code owner} is the caller's scope ({@code null}: everything).
 */
public record EventQuery(EventReads.Filter filter, EventReads.Cursor after, int limit) {
    static final Set<String> PARAMETERS = Set.of("type", "provider", "job_id", "since", "until", "limit", "cursor");

    public static EventQuery read(Map<String, List<String>> params, String owner) {
        QueryParams q = QueryParams.of(params, PARAMETERS, Set.of("type"));
        Set<String> types = new LinkedHashSet<>();
        for (String type : q.all("type")) {
            if (!EventSource.allTypes().contains(type)) {
                throw ApiError.badRequest(
                        "invalid_type", "unknown event type; known: " + String.join(", ", EventSource.allTypes()));
            }
            types.add(type);
        }
        Optional<String> provider = provider(q);
        EventReads.Filter filter = new EventReads.Filter(owner, types, provider, q.uuid("job_id"), window(q));
        return new EventQuery(filter, cursor(q.one("cursor").orElse(null)), q.limit());
    }

    static Optional<String> provider(QueryParams q) {
        Optional<String> provider = q.one("provider");
        if (provider.isPresent() && !ProviderSettings.validName(provider.get())) {
            throw ApiError.badRequest(
                    "invalid_provider", "provider must be a provider name (lower-case letters, digits, '-', '_')");
        }
        return provider;
    }

    /** {@code since} (inclusive) and {@code until} (exclusive); {@code since} must come first. */
    static EventReads.Window window(QueryParams q) {
        Optional<Instant> since = q.time("since");
        Optional<Instant> until = q.time("until");
        if (since.isPresent() && until.isPresent() && !since.get().isBefore(until.get())) {
            throw ApiError.badRequest("invalid_time_range", "since must be before until");
        }
        return new EventReads.Window(since, until);
    }

    /** The cursor of the page after this one. */
    public static String encode(EventReads.Cursor cursor) {
        return Cursors.encode(cursor.at().toString(), cursor.source().wire(), Long.toString(cursor.seq()));
    }

    static EventReads.Cursor cursor(String value) {
        return Cursors.decode(
                value,
                3,
                parts -> new EventReads.Cursor(
                        Cursors.time(parts[0]), EventSource.parse(parts[1]).orElseThrow(), Cursors.sequence(parts[2])));
    }
}
