package io.idem.server.events;

import io.idem.core.spi.EventReads;
import io.idem.server.http.ApiError;
import io.idem.server.http.Cursors;
import io.idem.server.http.QueryParams;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A request for a page of chat attempts, read strictly from query parameters ({@code provider},
 * {@code model}, {@code call_id}, {@code since}, {@code until} on the finishing time, {@code
 * limit}, {@code cursor}). {@code owner} is the caller's scope ({@code null}: everyone's).
 */
record AttemptQuery(EventReads.AttemptFilter filter, EventReads.AttemptCursor after, int limit) {
    private static final Set<String> PARAMETERS =
            Set.of("provider", "model", "call_id", "since", "until", "limit", "cursor");

    static AttemptQuery read(Map<String, List<String>> params, String owner) {
        QueryParams q = QueryParams.of(params, PARAMETERS, Set.of());
        Optional<String> model = q.one("model");
        if (model.isPresent() && (model.get().length() > 128 || !model.get().matches("[\\x21-\\x7e]+"))) {
            throw ApiError.badRequest("invalid_model", "model must be a model name (1..128 printable characters)");
        }
        EventReads.AttemptFilter filter = new EventReads.AttemptFilter(
                owner, EventQuery.provider(q), model, q.uuid("call_id"), EventQuery.window(q));
        return new AttemptQuery(filter, cursor(q.one("cursor").orElse(null)), q.limit());
    }

    static String encode(EventReads.AttemptCursor cursor) {
        return Cursors.encode(cursor.finishedAt().toString(), Long.toString(cursor.id()));
    }

    private static EventReads.AttemptCursor cursor(String value) {
        return Cursors.decode(
                value, 2, parts -> new EventReads.AttemptCursor(Cursors.time(parts[0]), Cursors.sequence(parts[1])));
    }
}
