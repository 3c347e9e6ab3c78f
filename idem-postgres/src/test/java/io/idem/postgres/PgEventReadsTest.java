package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.EventReads;
import io.idem.core.spi.EventSource;
import io.idem.core.spi.StoredChatAttempt;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The event stream and chat attempts on real PostgreSQL: exact paging across tables, scoping, filters. */
class PgEventReadsTest {
    private static final Instant T1 = Instant.parse("2026-05-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(1);
    private static final Instant T3 = T1.plusSeconds(2);
    private static final Comparator<EventReads.Event> STREAM_ORDER = Comparator.comparing(EventReads.Event::at)
            .thenComparing(EventReads.Event::source)
            .thenComparingLong(EventReads.Event::seq)
            .reversed();

    private Database db;
    private PgEventReads reads;
    private final UUID jobA = UUID.randomUUID();
    private final UUID jobB = UUID.randomUUID();
    private final UUID keyA = UUID.randomUUID();
    private final UUID keyB = UUID.randomUUID();
    private final UUID callA = UUID.randomUUID();
    private final UUID callB = UUID.randomUUID();

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(4);
        reads = new PgEventReads(db);
        job(jobA, "alice");
        job(jobB, "bob");
        key(keyA, "alice");
        key(keyB, "bob");
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void sql(String statement, Object... values) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(statement)) {
                for (int i = 0; i < values.length; i++) {
                    Object v = values[i] instanceof Instant at ? JobRows.timestamp(at) : values[i];
                    ps.setObject(i + 1, v);
                }
                ps.executeUpdate();
            }
            return null;
        });
    }

    private void job(UUID id, String owner) {
        sql("""
                INSERT INTO jobs (id, owner, state, kind, lane, prompt, size, n, timeout_seconds, candidates, pinned,
                                  created_at, updated_at)
                VALUES (?, ?, 'queued', 'image', 'standard', 'p', '1024x1024', 1, 60, '{primary}', false, ?, ?)
                """, id, owner, T1, T1);
    }

    private void key(UUID id, String owner) {
        sql(
                "INSERT INTO api_keys (id, prefix, secret_hash, owner, role, created_at) VALUES (?, 'idem_x', ?, ?, 'client', ?)",
                id,
                id.toString().getBytes(),
                owner,
                T1);
    }

    private void jobEvent(UUID job, String type, String provider, Instant at) {
        sql(
                "INSERT INTO job_events (job_id, type, actor, detail, at) VALUES (?, ?, 'worker:n', "
                        + "jsonb_strip_nulls(jsonb_build_object('provider', ?::text)), ?)",
                job,
                type,
                provider,
                at);
    }

    private void providerEvent(String provider, String type, Instant at) {
        sql(
                "INSERT INTO provider_events (provider, type, detail, at) VALUES (?, ?, '{\"reason\": \"x\"}', ?)",
                provider,
                type,
                at);
    }

    private void failover(UUID call, String owner, String fromProvider, Instant at) {
        chatAttempt(call, owner, fromProvider, at);
        sql(
                "INSERT INTO audit_events (type, actor, subject, detail, at) VALUES ('api:model_failover', 'key:k', ?, "
                        + "jsonb_build_object('call_id', ?::text, 'from_provider', ?::text, 'from_model', 'm1'), ?)",
                call.toString(),
                call.toString(),
                fromProvider,
                at);
    }

    private void chatAttempt(UUID call, String owner, String provider, Instant at) {
        sql("""
                INSERT INTO chat_attempts (call_id, seq, owner, lane, requested_model, model, provider, vendor_model,
                    stream, outcome, latency_ms, billable, started_at, finished_at)
                VALUES (?, 0, ?, 'standard', 'm1', 'm1', ?, 'v1', false, 'unavailable', 5, 'no', ?, ?)
                """, call, owner, provider, at.minusMillis(5), at);
    }

    private void keyBudget(UUID key, String type, Instant at) {
        sql(
                "INSERT INTO budget_events (scope, starts, type, spent_usd, cap_usd, at) VALUES (?, DATE '2026-05-01', ?, 1, 2, ?)",
                "key:" + key + ":day",
                type,
                at);
    }

    /** A mix of every source, many events sharing each instant. */
    private void mix() {
        for (Instant at : List.of(T1, T2, T3)) {
            jobEvent(jobA, "job.created", null, at);
            jobEvent(jobA, "attempt.failed_over", "primary", at);
            jobEvent(jobB, "job.succeeded", "backup", at);
            providerEvent("primary", "breaker.open", at);
            providerEvent("backup", "breaker.closed", at);
        }
        failover(callA, "alice", "primary", T2);
        failover(callB, "bob", "backup", T2);
        keyBudget(keyA, "budget.warning", T3);
        keyBudget(keyB, "budget.warning", T3);
        sql(
                "INSERT INTO budget_events (scope, starts, type, spent_usd, cap_usd, at) "
                        + "VALUES ('provider:primary', DATE '2026-05-01', 'budget.warning', 1, 2, ?)",
                T3);
    }

    private static EventReads.Filter all(String owner) {
        return new EventReads.Filter(owner, Set.of(), Optional.empty(), Optional.empty(), EventReads.Window.ALL);
    }

    private List<EventReads.Event> pageThrough(EventReads.Filter filter, int limit) {
        List<EventReads.Event> seen = new ArrayList<>();
        EventReads.Cursor after = null;
        for (int pages = 0; pages < 100; pages++) {
            EventReads.Page page = reads.events(filter, after, limit);
            assertThat(page.events().size()).isLessThanOrEqualTo(limit);
            seen.addAll(page.events());
            if (page.next().isEmpty()) {
                return seen;
            }
            after = page.next().get();
        }
        throw new AssertionError("paging never ended");
    }

    @Test
    void pagesCoverTheStreamOnceInItsExactOrderThoughManyEventsShareAnInstant() {
        mix();
        List<EventReads.Event> everything = reads.events(all(null), null, 200).events();
        // 9 job, 6 provider, 2 audit, 2 key budget events (the provider's threshold is a provider event)
        assertThat(everything).hasSize(19);
        assertThat(everything).isSortedAccordingTo(STREAM_ORDER);
        for (int limit : List.of(1, 2, 3, 4, 7)) {
            List<EventReads.Event> paged = pageThrough(all(null), limit);
            assertThat(paged).extracting(EventReads.Event::id).doesNotHaveDuplicates();
            assertThat(paged).as("limit " + limit).isEqualTo(everything);
        }
    }

    @Test
    void anOwnerSeesItsJobsEventsItsCallsFailoversAndItsKeysBudgetsOnly() {
        mix();
        List<EventReads.Event> alice = pageThrough(all("alice"), 2);
        assertThat(alice).allSatisfy(e -> assertThat(e.source()).isNotEqualTo(EventSource.PROVIDER));
        assertThat(alice)
                .filteredOn(e -> e.source() == EventSource.JOB)
                .allSatisfy(e -> assertThat(e.jobId()).contains(jobA))
                .hasSize(6);
        assertThat(alice)
                .filteredOn(e -> e.source() == EventSource.AUDIT)
                .singleElement()
                .satisfies(e -> assertThat(e.dataJson()).contains(callA.toString()));
        assertThat(alice)
                .filteredOn(e -> e.source() == EventSource.BUDGET)
                .singleElement()
                .satisfies(e -> assertThat(e.dataJson()).contains(keyA.toString()));
        assertThat(alice).hasSize(8);
        assertThat(pageThrough(all("carol"), 5)).isEmpty();
    }

    @Test
    void filtersByTypeProviderJobAndTime() {
        mix();
        var types = new EventReads.Filter(
                null,
                Set.of("breaker.open", "budget.warning"),
                Optional.empty(),
                Optional.empty(),
                EventReads.Window.ALL);
        assertThat(pageThrough(types, 2))
                .extracting(EventReads.Event::type)
                .containsOnly("breaker.open", "budget.warning")
                .hasSize(5);
        var primary =
                new EventReads.Filter(null, Set.of(), Optional.of("primary"), Optional.empty(), EventReads.Window.ALL);
        assertThat(pageThrough(primary, 3))
                .allSatisfy(e -> assertThat(e.provider()).contains("primary"))
                .hasSize(7);
        var jobOnly = new EventReads.Filter(null, Set.of(), Optional.empty(), Optional.of(jobB), EventReads.Window.ALL);
        assertThat(pageThrough(jobOnly, 2))
                .extracting(EventReads.Event::type)
                .containsExactly("job.succeeded", "job.succeeded", "job.succeeded");
        var window = new EventReads.Filter(
                null,
                Set.of(),
                Optional.empty(),
                Optional.empty(),
                new EventReads.Window(Optional.of(T2), Optional.of(T3)));
        assertThat(pageThrough(window, 4))
                .allSatisfy(e -> assertThat(e.at()).isEqualTo(T2))
                .hasSize(7);
    }

    @Test
    void theLastEventOfEachTypeIsFoundPerProvider() {
        mix();
        Map<String, Map<String, Instant>> last = reads.lastProviderEvents(
                Set.of("primary", "backup", "unknown"), Set.of("breaker.open", "breaker.closed"));
        assertThat(last).containsOnlyKeys("primary", "backup");
        assertThat(last.get("primary")).isEqualTo(Map.of("breaker.open", T3));
        assertThat(last.get("backup")).isEqualTo(Map.of("breaker.closed", T3));
    }

    @Test
    void chatAttemptsPageNewestFinishedFirstAndStayWithTheirOwner() {
        for (int i = 0; i < 5; i++) {
            chatAttempt(UUID.randomUUID(), "alice", "primary", T1);
            chatAttempt(UUID.randomUUID(), "bob", "backup", T2);
        }
        List<StoredChatAttempt> seen = new ArrayList<>();
        EventReads.AttemptCursor after = null;
        var mine = new EventReads.AttemptFilter(
                "alice", Optional.empty(), Optional.empty(), Optional.empty(), EventReads.Window.ALL);
        do {
            EventReads.AttemptPage page = reads.chatAttempts(mine, after, 2);
            seen.addAll(page.attempts());
            after = page.next().orElse(null);
        } while (after != null);
        assertThat(seen).hasSize(5).allSatisfy(a -> assertThat(a.owner()).isEqualTo("alice"));
        assertThat(new HashSet<>(seen.stream().map(StoredChatAttempt::id).toList()))
                .hasSize(5);
        assertThat(seen).extracting(StoredChatAttempt::id).isSortedAccordingTo(Comparator.reverseOrder());
        var everyone = new EventReads.AttemptFilter(
                null, Optional.of("backup"), Optional.empty(), Optional.empty(), EventReads.Window.ALL);
        assertThat(reads.chatAttempts(everyone, null, 50).attempts())
                .hasSize(5)
                .allSatisfy(a -> assertThat(a.route().provider()).isEqualTo("backup"));
    }
}
