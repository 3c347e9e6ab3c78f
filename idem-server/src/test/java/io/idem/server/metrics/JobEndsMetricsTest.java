package io.idem.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code idem_jobs_finished_total} counts every end, not only the worker's: an operator's decision
 * on a parked job and a client's cancel of a running one land under their final state.
 */
class JobEndsMetricsTest {
    private static final String TOKEN = "scrape-token-ends-0123456789";

    @Test
    void anOperatorsDecisionAndACancelAreCountedUnderTheirFinalState() {
        // The sweep is slowed down so the parked job waits for the operator.
        try (TestServer server =
                TestServer.start(Map.of("IDEM_METRICS_TOKEN", TOKEN, "IDEM_RECONCILE_INTERVAL_SECONDS", "3600"))) {
            String parked =
                    job(server, "{\"prompt\": \"parked\", \"timeout\": 1, \"simulate\": {\"primary\": \"timeout\"}}");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> state(server, parked).equals("manual_review"));
            var decided = server.post(
                    "/v1/jobs/" + parked + "/resolve",
                    TestServer.ADMIN_KEY,
                    "{\"action\": \"fail\", \"note\": \"vendor confirmed nothing was made\"}");
            assertThat(decided.status()).as(decided.raw()).isEqualTo(200);

            String slow = job(
                    server,
                    "{\"prompt\": \"slow\", \"timeout\": 30,"
                            + " \"simulate\": {\"primary\": \"slow:8000\", \"backup\": \"slow:8000\"}}");
            server.awaitAtVendor();
            var canceled = server.post("/v1/jobs/" + slow + "/cancel", TestServer.ADMIN_KEY, null);
            assertThat(canceled.status()).as(canceled.raw()).isEqualTo(200);

            String metrics = server.get("/metrics", TOKEN).raw();
            assertThat(finished(metrics, "manual_review")).isEqualTo(1);
            assertThat(finished(metrics, "failed")).isEqualTo(1);
            assertThat(finished(metrics, "canceled")).isEqualTo(1);
        }
    }

    private static double finished(String metrics, String state) {
        Matcher m = Pattern.compile(
                        "^idem_jobs_finished_total\\{lane=\"standard\",state=\"" + state + "\"} (\\S+)$",
                        Pattern.MULTILINE)
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static String job(TestServer server, String body) {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private static String state(TestServer server, String id) {
        return server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                .body()
                .get("state")
                .asText();
    }
}
