package io.idem.core.spi;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Reads the event stream (job events, provider events, the audit log, API key budget thresholds)
 * and the chat attempts, newest first, a page at a time.
 *
 * <p>The stream's order is exact and stable: by time, then {@link EventSource} order, then the
 * source's own sequence, all descending; a page's cursor is its last event's place in that order,
 * so pages neither repeat nor skip an event that was stored when the first page was read.
 *
 * <p>An {@code owner} of {@code null} reads everything (operators and admins). Otherwise only the
 * owner's own records exist: the events of its jobs, the failovers of its chat calls and the
 * thresholds of its keys' budgets; no provider event and no other audit event. Reads only;
 * implementations are thread-safe.
 */
public interface EventReads {

    /**
     * One event in the stream's uniform shape.
     *
     * @param seq the source's own sequence ({@code id} of its table)
     * @param dataJson a JSON object: the event's detail, never a secret
     */
    record Event(
            EventSource source,
            long seq,
            String type,
            Instant at,
            Optional<UUID> jobId,
            Optional<String> provider,
            Optional<String> model,
            String dataJson) {
        public Event {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(dataJson, "dataJson");
        }

        /** The event's stable id: its source and sequence, e.g. {@code job-42}. */
        public String id() {
            return source.wire() + "-" + seq;
        }

        public Cursor cursor() {
            return new Cursor(at, source, seq);
        }
    }

    /** A place in the stream's order: a page continues with what comes after it. */
    record Cursor(Instant at, EventSource source, long seq) {
        public Cursor {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(source, "source");
        }
    }

    /** A time range: from {@code since} (inclusive) to {@code until} (exclusive), each optional. */
    record Window(Optional<Instant> since, Optional<Instant> until) {
        public static final Window ALL = new Window(Optional.empty(), Optional.empty());

        public Window {
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(until, "until");
        }
    }

    /**
     * Which events: of any of {@code types} (empty: every type), naming {@code provider}, of one
     * job (then only job events), in a time window.
     */
    record Filter(String owner, Set<String> types, Optional<String> provider, Optional<UUID> jobId, Window window) {
        public Filter {
            types = Set.copyOf(types);
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(window, "window");
        }
    }

    record Page(List<Event> events, Optional<Cursor> next) {
        public Page {
            events = List.copyOf(events);
        }
    }

    /** Which chat attempts: by provider, Idem model name, call, and finishing time. */
    record AttemptFilter(
            String owner, Optional<String> provider, Optional<String> model, Optional<UUID> callId, Window window) {
        public AttemptFilter {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(window, "window");
        }
    }

    /** A place in the chat attempts' order (finishing time, then id, descending). */
    record AttemptCursor(Instant finishedAt, long id) {
        public AttemptCursor {
            Objects.requireNonNull(finishedAt, "finishedAt");
        }
    }

    record AttemptPage(List<StoredChatAttempt> attempts, Optional<AttemptCursor> next) {
        public AttemptPage {
            attempts = List.copyOf(attempts);
        }
    }

    /** Up to {@code limit} events after {@code after} ({@code null}: from the newest). */
    Page events(Filter filter, Cursor after, int limit);

    /** Up to {@code limit} chat attempts after {@code after} ({@code null}: from the newest). */
    AttemptPage chatAttempts(AttemptFilter filter, AttemptCursor after, int limit);

    /**
     * When each of {@code providers} last had an event of each of {@code types}: provider → type →
     * time, leaving out the pairs that never happened.
     */
    Map<String, Map<String, Instant>> lastProviderEvents(Set<String> providers, Set<String> types);
}
