package io.idem.postgres;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Role;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.WebhookSubscriptions;
import io.idem.core.webhook.Delivery;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox on real PostgreSQL: the triggers copy notable rows only, fan-out matches each event to
 * the subscriptions that may see it (and to a job's callback_url) exactly once even when nodes race,
 * and delivery claims lease, fence and are taken over as the dispatcher relies on.
 */
class PgOutboxTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
    private Database db;
    private PgOutbox outbox;
    private PgWebhookSubscriptions subscriptions;
    private UUID admin;
    private UUID alice;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh();
        outbox = new PgOutbox(db);
        subscriptions = new PgWebhookSubscriptions(db);
        admin = key("ops", Role.ADMIN);
        alice = key("alice", Role.CLIENT);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void onlyNotableRowsOfTheEventTablesReachTheOutbox() {
        subscribe("ops", true, admin, List.of("*"), t0);
        UUID job = accept("alice", alice, Optional.empty());
        jobEvent(job, "job.claimed", "running");
        providerEvent("primary", "breaker.half_open");
        providerEvent("primary", "provider.rate_limited");
        sql("INSERT INTO audit_events (type, actor, detail, at) VALUES ('console:sign_in', 'x', '{}', now())");
        assertThat(outboxTypes()).isEmpty();

        jobEvent(job, "job.succeeded", "succeeded");
        providerEvent("primary", "breaker.open");
        providerEvent("primary", "breaker.closed");
        providerEvent("primary", "provider.unhealthy");
        sql("INSERT INTO audit_events (type, actor, detail, at) VALUES ('api:model_failover', 'key:k', '{}', now())");
        sql("INSERT INTO budget_events (scope, starts, type, spent_usd, cap_usd, at)" + " VALUES ('key:" + alice
                + ":month', '2026-12-01', 'budget.warning', 5, 10, now())");
        assertThat(outboxTypes())
                .containsExactly(
                        "job.succeeded",
                        "breaker.opened",
                        "breaker.closed",
                        "provider.unhealthy",
                        "api:model_failover",
                        "budget.warning");
        assertThat(
                        text(
                                "SELECT data->>'period' || ' ' || (data->>'api_key_id') FROM outbox WHERE type = 'budget.warning'"))
                .isEqualTo("month " + alice);
    }

    @Test
    void jobEndsAndFailoversReachTheOutboxOnlyWhenSomethingMayDeliverThem() {
        UUID plain = accept("alice", alice, Optional.empty());
        UUID called = accept("alice", alice, Optional.of("https://example.com/alice"));
        jobEvent(plain, "job.succeeded", "succeeded");
        jobEvent(called, "job.failed", "failed");
        sql("INSERT INTO audit_events (type, actor, detail, at) VALUES ('api:model_failover', 'key:k', '{}', now())");
        providerEvent("primary", "breaker.open");
        assertThat(outboxTypes())
                .as("no subscription: the callback and the rare events only")
                .containsExactly("job.failed", "breaker.opened");

        subscribe("ops", true, admin, List.of("job.succeeded"), t0);
        jobEvent(plain, "job.succeeded", "succeeded");
        jobEvent(plain, "job.failed", "failed");
        sql("INSERT INTO audit_events (type, actor, detail, at) VALUES ('api:model_failover', 'key:k', '{}', now())");
        assertThat(outboxTypes()).containsExactly("job.failed", "breaker.opened", "job.succeeded");

        subscribe("alice", false, alice, List.of("*"), t0);
        sql("INSERT INTO audit_events (type, actor, detail, at) VALUES ('api:model_failover', 'key:k', '{}', now())");
        assertThat(outboxTypes()).endsWith("api:model_failover");
    }

    /**
     * A SQL function with a subquery is not inlined, and called from a plpgsql trigger it is parsed
     * and planned again on every row (V46): no trigger of ours may call one.
     */
    @Test
    void noTriggerCallsASqlFunctionThatIsPlannedAgainOnEveryRow() {
        assertThat(rows("""
                        SELECT t.tgrelid::regclass || ' -> ' || f.proname || ' -> ' || s.proname
                          FROM pg_trigger t
                          JOIN pg_proc f ON f.oid = t.tgfoid
                          JOIN pg_proc s ON s.pronamespace = f.pronamespace
                                        AND s.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
                         WHERE NOT t.tgisinternal AND f.prosrc ~ ('\\m' || s.proname || '\\s*\\(')
                        """)).isEmpty();
    }

    @Test
    void fanOutMatchesTypesOwnersLiveKeysAndTheSubscriptionsAge() {
        UUID revoked = key("ops2", Role.ADMIN);
        sql("UPDATE api_keys SET revoked_at = now() WHERE id = '" + revoked + "'");
        UUID everything = subscribe("ops", true, admin, List.of("*"), t0);
        UUID hers = subscribe("alice", false, alice, List.of("*"), t0);
        UUID bobs = subscribe("bob", false, key("bob", Role.CLIENT), List.of("*"), t0);
        subscribe("ops", true, admin, List.of("job.failed"), t0);
        subscribe("ops2", true, revoked, List.of("*"), t0);
        UUID job = accept("alice", alice, Optional.of("https://example.com/alice"));
        jobEvent(job, "job.succeeded", "succeeded");
        subscribe("ops", true, admin, List.of("*"), t0.plusSeconds(3600));
        providerEvent("primary", "breaker.open");

        assertThat(outbox.fanOut(100, t0, t0.plus(Duration.ofHours(24)))).isEqualTo(2);
        assertThat(outbox.fanOut(100, t0, t0.plus(Duration.ofHours(24)))).isZero();
        List<String> deliveries = rows("""
                SELECT event_type || ' ' || coalesce(subscription_id::text, 'callback ' || url) FROM outbox_deliveries
                 ORDER BY event_type, subscription_id NULLS LAST""");
        assertThat(deliveries)
                .containsExactlyInAnyOrder(
                        "breaker.opened " + everything,
                        "job.succeeded " + everything,
                        "job.succeeded " + hers,
                        "job.succeeded callback https://example.com/alice");
        assertThat(deliveries).noneMatch(d -> d.contains(bobs.toString()));
        String body = text("SELECT body FROM outbox_deliveries WHERE subscription_id = '" + hers + "'");
        assertThat(body).contains("\"owner\": \"alice\"").contains("\"job_id\": \"" + job + "\"");
        assertThat(text("SELECT count(DISTINCT body) FROM outbox_deliveries WHERE event_type = 'job.succeeded'"))
                .isEqualTo("1");
    }

    @Test
    void racingFanOutsTakeEveryEventOnce() throws Exception {
        subscribe("ops", true, admin, List.of("*"), t0);
        for (int i = 0; i < 400; i++) {
            providerEvent("p" + i, "breaker.open");
        }
        List<Callable<Integer>> nodes = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            nodes.add(() -> {
                int taken = 0;
                for (int got = -1; got != 0; ) {
                    got = outbox.fanOut(25, t0, t0.plusSeconds(60));
                    taken += got;
                }
                return taken;
            });
        }
        int total = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (Future<Integer> f : pool.invokeAll(nodes)) {
                total += f.get();
            }
        }
        assertThat(total).isEqualTo(400);
        assertThat(text("SELECT count(*) || ' ' || count(DISTINCT event_id) FROM outbox_deliveries"))
                .isEqualTo("400 400");
    }

    @Test
    void aClaimLeasesItsDeliveryAndAStaleClaimIsTakenOverAndFenced() {
        UUID subscription = subscribe("ops", true, admin, List.of("*"), t0);
        providerEvent("primary", "breaker.open");
        outbox.fanOut(10, t0, t0.plus(Duration.ofHours(1)));

        Delivery first = outbox.claim("node-a", 10, t0, LEASE).getFirst();
        assertThat(first.attempt()).isEqualTo(1);
        assertThat(first.signer()).isInstanceOf(Delivery.Signer.Subscription.class);
        assertThat(outbox.claim("node-b", 10, t0.plusSeconds(29), LEASE)).isEmpty();
        Delivery second = outbox.claim("node-b", 10, t0.plusSeconds(30), LEASE).getFirst();
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.body()).isEqualTo(first.body());

        outbox.failed(first, 500, "HTTP 500", t0.plusSeconds(31), Optional.of(t0.plusSeconds(32)));
        assertThat(log(subscription).attempts().lastStatus()).isEmpty();
        outbox.failed(second, 503, "HTTP 503", t0.plusSeconds(31), Optional.of(t0.plusSeconds(40)));
        var pending = log(subscription);
        assertThat(pending.status()).isEqualTo("pending");
        assertThat(pending.attempts().lastStatus()).contains(503);
        assertThat(pending.attempts().nextAt()).contains(t0.plusSeconds(40));
        assertThat(outbox.claim("node-a", 10, t0.plusSeconds(39), LEASE)).isEmpty();

        outbox.delivered(first, 200, t0.plusSeconds(41));
        var delivered = log(subscription);
        assertThat(delivered.status()).isEqualTo("delivered");
        assertThat(delivered.attempts().count()).isEqualTo(2);
        assertThat(delivered.attempts().nextAt()).isEmpty();
        assertThat(outbox.claim("node-a", 10, t0.plusSeconds(3600), LEASE)).isEmpty();
    }

    @Test
    void aDeliveryWithoutARetryFailsForGoodAndEndedDeliveriesArePurged() {
        UUID subscription = subscribe("ops", true, admin, List.of("*"), t0);
        providerEvent("primary", "breaker.open");
        providerEvent("primary", "breaker.closed");
        outbox.fanOut(10, t0, t0.plusSeconds(60));
        List<Delivery> claimed = outbox.claim("node-a", 10, t0, LEASE);
        outbox.failed(claimed.get(0), 0, "no answer", t0.plusSeconds(1), Optional.empty());
        outbox.delivered(claimed.get(1), 204, t0.plusSeconds(1));
        var page = subscriptions.deliveries(subscription, Optional.empty(), 1);
        assertThat(page.deliveries()).hasSize(1);
        var rest = subscriptions.deliveries(subscription, page.next(), 1);
        assertThat(rest.deliveries()).hasSize(1);
        assertThat(rest.next()).isEmpty();
        assertThat(List.of(
                        page.deliveries().getFirst().status(),
                        rest.deliveries().getFirst().status()))
                .containsExactlyInAnyOrder("failed", "delivered");

        assertThat(outbox.purge(t0.plusSeconds(1), 100)).isZero();
        assertThat(outbox.purge(t0.plusSeconds(2), 100)).isEqualTo(2);
        assertThat(subscriptions.deliveries(subscription, Optional.empty(), 10).deliveries())
                .isEmpty();
    }

    private UUID key(String owner, Role role) {
        UUID id = UUID.randomUUID();
        new PgApiKeys(db).insert(id, "idem_" + owner, id.toString().getBytes(), owner, role, t0);
        return id;
    }

    private UUID subscribe(String owner, boolean all, UUID by, List<String> types, Instant at) {
        UUID id = UUID.randomUUID();
        subscriptions.create(
                new WebhookSubscriptions.Subscription(
                        id, owner, all, by, "https://example.com/" + id, types, Optional.empty(), at),
                new byte[] {1, 2, 3});
        return id;
    }

    private UUID accept(String owner, UUID key, Optional<String> callback) {
        var spec = callback.map(url -> aJobSpec().callbackUrl(url))
                .orElse(aJobSpec())
                .build();
        return ((JobIntake.Accepted.Created) new PgJobIntake(db).accept(owner, key, spec, null, t0)).jobId();
    }

    private void jobEvent(UUID job, String type, String toState) {
        sql("INSERT INTO job_events (job_id, type, to_state, actor, detail, at) VALUES ('" + job + "', '" + type
                + "', '" + toState + "', 'test', '{\"provider\": \"primary\"}', '" + t0 + "')");
    }

    private void providerEvent(String provider, String type) {
        sql("INSERT INTO provider_events (provider, type, detail, at) VALUES ('" + provider + "', '" + type
                + "', '{\"from\": \"closed\"}', '" + t0 + "')");
    }

    private WebhookSubscriptions.DeliveryRecord log(UUID subscription) {
        return subscriptions
                .deliveries(subscription, Optional.empty(), 10)
                .deliveries()
                .getFirst();
    }

    private List<String> outboxTypes() {
        return rows("SELECT type FROM outbox ORDER BY id");
    }

    private String text(String query) {
        return rows(query).getFirst();
    }

    private List<String> rows(String query) {
        return TestDatabases.column(db, query);
    }

    private void sql(String statement) {
        db.withConnection(c -> c.createStatement().executeUpdate(statement));
    }
}
