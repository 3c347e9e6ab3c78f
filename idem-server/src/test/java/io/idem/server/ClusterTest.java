package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.providers.fake.LedgerEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Several worker nodes on one database and standalone fake vendors: every job is claimed and
 * called exactly once per candidate, and the vendors' ledgers equal the audit, job for job.
 */
class ClusterTest {
    private static final List<String> MODES = List.of(
            "ok",
            "ok",
            "ok",
            "http_503",
            "http_429",
            "refuse",
            "malformed",
            "user_error",
            "policy",
            "auth",
            "disconnect",
            "lost",
            "timeout");

    @Test
    void threeNodesRunEveryJobOnceAndTheLedgersEqualTheAudit() {
        try (FakeVendorServer primary = FakeVendorServer.start(0);
                FakeVendorServer backup = FakeVendorServer.start(0)) {
            Map<String, String> env = new HashMap<>();
            env.put("IDEM_DATABASE_URL", TestDatabases.freshUrl());
            env.put("PROVIDERS_JSON", """
                    {"providers": {"primary": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04"},
                                   "backup": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04"}},
                     "lanes": {"standard": ["primary", "backup"]}}
                    """.formatted(primary.baseUrl(), backup.baseUrl()));
            List<TestServer> nodes = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Map<String, String> nodeEnv = new HashMap<>(env);
                    nodeEnv.put("IDEM_WORKER_CONCURRENCY", "8");
                    nodeEnv.put("IDEM_WORKER_ID", "node-" + i);
                    nodes.add(TestServer.start(nodeEnv));
                }
                Random random = new Random(42);
                int jobs = 240;
                for (int i = 0; i < jobs; i++) {
                    String mode = MODES.get(random.nextInt(MODES.size()));
                    TestServer node = nodes.get(i % nodes.size());
                    var reply = node.post("/v1/jobs", TestServer.ADMIN_KEY, """
                            {"prompt": "job %d", "timeout": 1, "simulate": {"primary": "%s"}}
                            """.formatted(i, mode));
                    assertThat(reply.status()).isEqualTo(202);
                }
                TestServer any = nodes.getFirst();
                await().atMost(Duration.ofSeconds(60)).until(() -> count(any, "state IN ('queued', 'running')") == 0);

                assertThat(count(any, "true")).isEqualTo(jobs);
                assertThat(claimsPerJob(any))
                        .as("every job claimed exactly once")
                        .containsOnly(1);
                assertThat(attemptsPerJobAndProvider(any))
                        .as("one call per provider per job")
                        .containsOnly(1);

                Map<String, String> billable = billableByAttempt(any);
                Set<String> billed = new HashSet<>();
                Stream.concat(primary.ledger().stream(), backup.ledger().stream())
                        .map(LedgerEntry::reference)
                        .forEach(ref -> assertThat(billed.add(ref))
                                .as("billed once: " + ref)
                                .isTrue());
                for (String ref : billed) {
                    assertThat(billable.get(ref))
                            .as("ledger entry %s is in the audit as yes/unknown", ref)
                            .isIn("yes", "unknown");
                }
                billable.forEach((ref, flag) -> {
                    if (flag.equals("yes")) {
                        assertThat(billed)
                                .as("audited yes %s is on the invoice", ref)
                                .contains(ref);
                    }
                    if (flag.equals("no")) {
                        assertThat(billed)
                                .as("audited no %s is not on the invoice", ref)
                                .doesNotContain(ref);
                    }
                });
            } finally {
                nodes.forEach(TestServer::close);
            }
        }
    }

    private static int count(TestServer node, String where) {
        return node.node().database().withConnection(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM jobs WHERE " + where)) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    private static List<Integer> claimsPerJob(TestServer node) {
        return ints(node, "SELECT count(*) FROM job_events WHERE type = 'job.claimed' GROUP BY job_id");
    }

    private static List<Integer> attemptsPerJobAndProvider(TestServer node) {
        return ints(node, "SELECT count(*) FROM provider_attempts GROUP BY job_id, provider");
    }

    private static List<Integer> ints(TestServer node, String sql) {
        return node.node().database().withConnection(c -> {
            List<Integer> out = new ArrayList<>();
            try (var rs = c.createStatement().executeQuery(sql)) {
                while (rs.next()) {
                    out.add(rs.getInt(1));
                }
            }
            return out;
        });
    }

    private static Map<String, String> billableByAttempt(TestServer node) {
        return node.node().database().withConnection(c -> {
            Map<String, String> out = new HashMap<>();
            try (var rs = c.createStatement().executeQuery("SELECT id::text, billable FROM provider_attempts")) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
            return out;
        });
    }
}
