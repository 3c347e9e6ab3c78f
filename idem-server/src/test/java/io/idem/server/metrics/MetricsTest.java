package io.idem.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} after a scripted mix of jobs and chat calls: scraped over HTTP and parsed
 * from the Prometheus text format, names and values checked against what the mix did.
 */
class MetricsTest {
    private static final String TOKEN = "scrape-token-0123456789abcdef";
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("IDEM_METRICS_TOKEN", TOKEN, "IDEM_METRICS_PORT", "0"));
        runTheMix();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** One job served by primary, one failed over to backup, one parked; a chat call that fails over. */
    private static void runTheMix() {
        String served = job("{\"prompt\": \"served\"}");
        String failedOver = job("{\"prompt\": \"failed over\", \"simulate\": {\"primary\": \"http_503\"}}");
        String parked = job("{\"prompt\": \"parked\", \"timeout\": 1, \"simulate\": {\"primary\": \"timeout\"}}");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> state(served).equals("succeeded")
                        && state(failedOver).equals("succeeded")
                        && state(parked).equals("manual_review"));
        var chat = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"models": ["fake-chat-a", "fake-chat-b"], "redundancy": {"retries": 0}, "simulate": {"fake-chat-a": "http_503"},
                 "messages": [{"role": "user", "content": "hello"}]}""");
        assertThat(chat.status()).as(chat.raw()).isEqualTo(200);
        for (String prompt : new String[] {"Hello!", "what is idem", "something nobody prepared"}) {
            var tier = server.post(
                    "/v1/chat/completions",
                    TestServer.ADMIN_KEY,
                    "{\"model\": \"static\", \"messages\": [{\"role\": \"user\", \"content\": \"" + prompt + "\"}]}");
            assertThat(tier.status()).as(tier.raw()).isEqualTo(200);
        }
        var streamed = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"model": "static", "stream": true, "messages": [{"role": "user", "content": "hi"}]}""");
        assertThat(streamed.raw()).contains("data: [DONE]");
    }

    private static String job(String body) {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private static String state(String id) {
        return server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                .body()
                .get("state")
                .asText();
    }

    private record Sample(String name, Map<String, String> labels, double value) {}

    private static HttpResponse<String> scrape(String baseUrl, String bearer) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + "/metrics")).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as("a sample line: %s", line).isTrue();
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return samples;
    }

    private static List<Sample> samples() {
        var response = scrape(server.node().baseUrl(), TOKEN);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        return parse(response.body());
    }

    /** The sum of {@code name}'s samples whose labels include all of {@code labels}. */
    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value)
                .sum();
    }

    @Test
    void attemptsAreCountedByKindProviderOutcomeAndBillable() {
        var samples = samples();
        String attempts = "idem_attempts_total";
        assertThat(value(samples, attempts, Map.of("kind", "job", "provider", "primary", "outcome", "confirmed")))
                .isEqualTo(1);
        assertThat(value(
                        samples,
                        attempts,
                        Map.of("kind", "job", "provider", "primary", "outcome", "unavailable", "billable", "no")))
                .isEqualTo(1);
        assertThat(value(samples, attempts, Map.of("kind", "job", "provider", "backup", "outcome", "confirmed")))
                .isEqualTo(1);
        assertThat(value(
                        samples,
                        attempts,
                        Map.of("kind", "job", "provider", "primary", "outcome", "unconfirmed", "billable", "unknown")))
                .isEqualTo(1);
        assertThat(value(samples, attempts, Map.of("kind", "chat", "provider", "primary", "outcome", "unavailable")))
                .isEqualTo(1);
        assertThat(value(samples, attempts, Map.of("kind", "chat", "provider", "backup", "outcome", "served")))
                .isEqualTo(1);
        assertThat(samples.stream()
                        .filter(s -> s.name().equals(attempts))
                        .map(s -> s.labels().get("model")))
                .contains("fake-image-v1");
    }

    @Test
    void latencyIsAHistogramPerKindAndProvider() {
        var samples = samples();
        var jobPrimary = Map.of("kind", "job", "provider", "primary");
        assertThat(value(samples, "idem_attempt_duration_seconds_count", jobPrimary))
                .isEqualTo(3);
        assertThat(value(samples, "idem_attempt_duration_seconds_sum", jobPrimary))
                .isGreaterThan(0);
        assertThat(value(
                        samples,
                        "idem_attempt_duration_seconds_bucket",
                        Map.of("kind", "job", "provider", "primary", "le", "+Inf")))
                .isEqualTo(3);
        assertThat(value(samples, "idem_attempt_duration_seconds_count", Map.of("kind", "chat", "provider", "backup")))
                .isEqualTo(1);
    }

    @Test
    void chatFailoversAreCountedFromAndTo() {
        assertThat(value(
                        samples(),
                        "idem_fallbacks_total",
                        Map.of("kind", "chat", "from", "fake-chat-a", "to", "fake-chat-b")))
                .isEqualTo(1);
    }

    @Test
    void jobFailoversAndTheJobsTheWorkerEndedAreCountedPerLane() {
        var samples = samples();
        assertThat(value(
                        samples,
                        "idem_fallbacks_total",
                        Map.of(
                                "kind", "job",
                                "lane", "standard",
                                "from", "primary",
                                "to", "backup",
                                "reason", "unavailable")))
                .isEqualTo(1);
        assertThat(value(samples, "idem_jobs_finished_total", Map.of("lane", "standard", "state", "succeeded")))
                .isEqualTo(2);
        assertThat(value(samples, "idem_jobs_finished_total", Map.of("lane", "standard", "state", "manual_review")))
                .isEqualTo(1);
        assertThat(value(samples, "idem_job_time_to_result_seconds_count", Map.of("lane", "standard")))
                .isEqualTo(2);
        assertThat(value(samples, "idem_job_time_to_result_seconds_sum", Map.of("lane", "standard")))
                .isGreaterThan(0);
    }

    @Test
    void theGrafanaDashboardInTheRepositoryUsesOnlyNamesANodeServes() throws java.io.IOException {
        java.nio.file.Path dashboard = java.nio.file.Path.of("..", "docs", "grafana", "idem-dashboard.json");
        var panels = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dashboard.toFile())
                .get("panels");
        java.util.Set<String> served = new java.util.HashSet<>();
        samples().forEach(s -> served.add(s.name()));
        java.util.Set<String> used = new java.util.TreeSet<>();
        Matcher names = Pattern.compile("idem_[a-z0-9_]+").matcher("");
        panels.forEach(panel -> panel.get("targets").forEach(target -> {
            names.reset(target.get("expr").asText());
            while (names.find()) {
                used.add(names.group());
            }
        }));
        assertThat(used).hasSizeGreaterThan(10);
        assertThat(served).containsAll(used);
    }

    @Test
    void everyPlainChatCallRecordsItsGatewayOverhead() {
        var samples = samples();
        assertThat(value(samples, "idem_chat_overhead_seconds_count", Map.of())).isEqualTo(4);
        assertThat(value(samples, "idem_chat_overhead_seconds_bucket", Map.of("le", "+Inf")))
                .isEqualTo(4);
    }

    @Test
    void theStaticTiersCoverageCountsPreparedAnswersAndBareNotices() {
        var samples = samples();
        assertThat(value(samples, "idem_static_answers_total", Map.of("provider", "static", "answer", "prepared")))
                .isEqualTo(3);
        assertThat(value(samples, "idem_static_answers_total", Map.of("provider", "static", "answer", "notice")))
                .isEqualTo(1);
    }

    @Test
    void theBacklogGaugesShowTheParkedJobAndTheMoneyAtRisk() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            var samples = samples();
            assertThat(value(samples, "idem_jobs", Map.of("state", "manual_review")))
                    .isEqualTo(1);
            assertThat(value(samples, "idem_money_at_risk_usd", Map.of())).isEqualTo(0.04);
            assertThat(value(samples, "idem_unknown_attempts", Map.of())).isEqualTo(1);
            assertThat(value(samples, "idem_review_oldest_age_seconds", Map.of()))
                    .isGreaterThanOrEqualTo(0);
        });
    }

    @Test
    void everyProviderHasItsBreakerHealthAndSpendGauges() {
        var samples = samples();
        for (String provider : List.of("primary", "backup")) {
            assertThat(samples)
                    .anyMatch(s -> s.name().equals("idem_breaker_state")
                            && provider.equals(s.labels().get("provider"))
                            && s.value() == 0);
            assertThat(samples)
                    .anyMatch(s -> s.name().equals("idem_provider_healthy")
                            && provider.equals(s.labels().get("provider")));
            assertThat(samples)
                    .anyMatch(s -> s.name().equals("idem_budget_used_ratio")
                            && provider.equals(s.labels().get("provider")));
        }
        assertThat(value(
                        samples,
                        "idem_spend_usd_total",
                        Map.of("kind", "job", "provider", "backup", "billable", "yes")))
                .isEqualTo(0.04);
        assertThat(value(
                        samples,
                        "idem_spend_usd_total",
                        Map.of("kind", "job", "provider", "primary", "billable", "unknown")))
                .isEqualTo(0.04);
    }

    @Test
    void namesFollowPrometheusConventionsAndLabelsCarryNoIds() {
        Pattern id = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-|idem_test|" + TOKEN);
        for (Sample s : samples()) {
            if (!s.name().startsWith("idem_")) {
                continue;
            }
            assertThat(s.name()).matches("idem_[a-z0-9_]+");
            assertThat(s.labels().keySet())
                    .isSubsetOf(
                            "kind",
                            "provider",
                            "model",
                            "outcome",
                            "billable",
                            "state",
                            "lane",
                            "from",
                            "to",
                            "reason",
                            "answer",
                            "le");
            s.labels()
                    .values()
                    .forEach(v ->
                            assertThat(id.matcher(v).find()).as(s.toString()).isFalse());
        }
    }

    @Test
    void aScrapeNeedsTheTokenOrAnAdminKey() {
        String base = server.node().baseUrl();
        assertThat(scrape(base, null).statusCode()).isEqualTo(401);
        assertThat(scrape(base, "not-the-token").statusCode()).isEqualTo(401);
        assertThat(scrape(base, server.newKey("metrics-client", "client")).statusCode())
                .isEqualTo(403);
        assertThat(scrape(base, TestServer.ADMIN_KEY).statusCode()).isEqualTo(200);
        assertThat(scrape(base, TOKEN).body()).doesNotContain(TOKEN);
    }

    @Test
    void theManagementPortServesTheSameMetricsAndNothingElse() {
        String management = server.node().managementUrl().orElseThrow();
        var response = scrape(management, TOKEN);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("idem_attempts_total");
        var jobs = HttpRequest.newBuilder(URI.create(management + "/v1/jobs"))
                .header("Authorization", "Bearer " + TestServer.ADMIN_KEY)
                .build();
        try {
            assertThat(HTTP.send(jobs, HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(404);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
