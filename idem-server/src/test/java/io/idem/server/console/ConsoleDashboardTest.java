package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The Dashboard in a real headless Chromium after a scripted mix (jobs served, failed over and
 * parked, a chat call that fell back): each chart's SVG carries the series and the values that were
 * driven, and a new job reaches the open page live. Takes docs/screenshots/dashboard.png.
 */
class ConsoleDashboardTest {
    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "canceled", "manual_review");

    private static TestServer server;
    private static ConsoleBrowser browser;
    private static String base;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("RECONCILE_INTERVAL_SECONDS", "3600"));
        base = server.node().baseUrl();
        job("{\"prompt\": \"a served job\", \"timeout\": 3}");
        job("{\"prompt\": \"another served job\", \"timeout\": 3}");
        job("{\"prompt\": \"a failover\", \"timeout\": 3, \"simulate\": {\"primary\": \"http_503\"}}");
        job("{\"prompt\": \"another failover\", \"timeout\": 3, \"simulate\": {\"primary\": \"http_503\"}}");
        job("{\"prompt\": \"a dropped call\", \"timeout\": 2, \"simulate\": {\"primary\": \"disconnect\"}}");
        var chat = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"model": "fake-chat-a", "fallback_models": ["static"], "simulate": {"fake-chat-a": "http_503"},
                 "messages": [{"role": "user", "content": "hi"}]}""");
        assertThat(chat.status()).isEqualTo(200);
        server.awaitChatAudit();
        browser = new ConsoleBrowser();
    }

    @AfterAll
    static void stop() {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            server.close();
        }
    }

    @Test
    void theDashboardDrawsWhatWasDrivenAndFollowsItLive() {
        signIn();
        browser.find("nav a[href='/console/dashboard']").click();
        browser.await("the Dashboard", d -> browser.text("h1").equals("Dashboard"));

        assertThat(total("spend", "primary")).isEqualByComparingTo("0.08");
        assertThat(total("spend", "backup")).isEqualByComparingTo("0.08");
        assertThat(legend("spend")).startsWith("primary", "backup");
        assertThat(values("fallbacks", "jobs")).isNotEmpty();
        assertThat(desc("fallbacks")).contains("jobs 40 % of 5, chat calls 100 % of 1");
        assertThat(values("at-risk", "money at risk").getLast()).isEqualTo("0.04");
        assertThat(values("review", "jobs in review").getLast()).isEqualTo("1");
        assertThat(values("latency", "primary")).isNotEmpty();
        assertThat(browser.text("[data-testid=at-risk-now] dd")).isEqualTo("$0.04");
        assertThat(browser.text("[data-testid=in-review-now] dd")).isEqualTo("1");
        assertThat(browser.text("[data-testid=fallback-rate] dd")).isEqualTo("50 %");
        assertThat(browser.attribute("svg[data-chart=at-risk]", "role")).isEqualTo("img");
        assertThat(desc("at-risk")).contains("Now: $0.04");
        assertThat(desc("spend")).contains("primary $0.08, backup $0.08");
        assertThat(browser.all("svg[data-chart=spend] g[data-series=backup] rect title").stream()
                        .map(t -> t.getAttribute("textContent"))
                        .filter(t -> !t.endsWith(": $0")))
                .allMatch(t -> t.startsWith("backup, ") && t.matches(".*: \\$0\\.0[48]"));
        seenByAPerson();

        job("{\"prompt\": \"a failover seen live\", \"timeout\": 3, \"simulate\": {\"primary\": \"http_503\"}}");
        browser.await(
                "the new failover on the open page",
                d -> total("spend", "backup").compareTo(new BigDecimal("0.12")) == 0);
        browser.await("the fallback rate to follow", d -> desc("fallbacks").contains("jobs 50 % of 6"));
        assertThat(browser.driver().getCurrentUrl()).endsWith("/console/dashboard");

        browser.find(".ranges a[href='/console/dashboard?range=1h']").click();
        browser.await("the last hour", d -> d.getCurrentUrl().endsWith("range=1h"));
        assertThat(points("at-risk", "money at risk"))
                .as("a value at every 5-minute bucket's end")
                .hasSize(12);
        assertThat(total("spend", "backup")).isEqualByComparingTo("0.12");
        seenByAPerson();
        browser.screenshot("dashboard");
    }

    @Test
    void aClientKeyHasNoDashboard() {
        ConsoleClient alice = ConsoleClient.signedIn(base, server.newKey("alice", "client"));
        var page = alice.get("/console/dashboard");
        assertThat(page.statusCode()).isEqualTo(403);
        assertThat(page.body()).doesNotContain("<svg");
        assertThat(alice.get("/console/generate").body()).doesNotContain("/console/dashboard");
        ConsoleClient ops = ConsoleClient.signedIn(base, server.newKey("ops", "operator"));
        assertThat(ops.get("/console/dashboard?range=1h").body()).contains("data-chart=\"spend\"");
        assertThat(ops.get("/console/dashboard?range=7d").statusCode()).isEqualTo(400);
    }

    private static void job(String body) {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).isEqualTo(202);
        String id = reply.body().get("id").asText();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> TERMINAL.contains(server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()));
    }

    private void signIn() {
        browser.open(base + "/console");
        browser.awaitElement("#api_key").sendKeys(TestServer.ADMIN_KEY);
        browser.find("form.login button[type=submit]").click();
        browser.await("the Generate page after sign-in", d -> browser.text("h1").equals("Generate"));
    }

    /** The {@code data-value} of every point or bar of one series, in bucket order. */
    private List<String> values(String chart, String series) {
        return browser.await(
                "the values of " + chart + "/" + series,
                d -> points(chart, series).stream()
                        .map(e -> e.getAttribute("data-value"))
                        .toList());
    }

    private List<WebElement> points(String chart, String series) {
        return browser.driver()
                .findElements(By.cssSelector(
                        "svg[data-chart='" + chart + "'] g.series[data-series='" + series + "'] [data-value]"));
    }

    private BigDecimal total(String chart, String series) {
        return values(chart, series).stream().map(BigDecimal::new).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private String desc(String chart) {
        return browser.await(
                "the description of " + chart,
                d -> d.findElement(By.cssSelector("svg[data-chart='" + chart + "'] desc"))
                        .getAttribute("textContent"));
    }

    private List<String> legend(String chart) {
        return browser.all("svg[data-chart='" + chart + "'] g.legend-item").stream()
                .map(e -> e.getAttribute("data-series"))
                .toList();
    }

    private void seenByAPerson() {
        assertThat(browser.driver().getPageSource()).doesNotContain(TestServer.ADMIN_KEY);
        browser.assertAccessibleBasics();
    }
}
