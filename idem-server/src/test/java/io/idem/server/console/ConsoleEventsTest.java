package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.core.spi.EventSource;
import io.idem.server.TestServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The Events page: in a real headless Chromium an operator finds it in the navigation, filters by
 * type, provider and job, follows a job to its trace and pages to older events; over plain HTTP a
 * client sees only its own jobs' events, and a bad filter is refused.
 */
class ConsoleEventsTest {
    private static final Pattern JOB_LINK = Pattern.compile("href=\"/console/jobs/([0-9a-f-]{36})\"");
    private static TestServer server;
    private static String base;
    private static String failedOver;
    private static String clientJob;
    private static String clientKey;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        base = server.node().baseUrl();
        failedOver = settle(TestServer.ADMIN_KEY, "{\"prompt\": \"over\", \"simulate\": {\"primary\": \"http_503\"}}");
        settle(TestServer.ADMIN_KEY, "{\"prompt\": \"ok\"}");
        clientKey = server.newKey("carol", "client");
        clientJob = settle(clientKey, "{\"prompt\": \"mine\"}");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String settle(String key, String body) {
        String id = server.post("/v1/jobs", key, body).body().get("id").asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/jobs/" + id, key)
                        .body()
                        .get("state")
                        .asText()
                        .equals("succeeded"));
        return id;
    }

    private static Set<String> jobsLinked(String html) {
        Set<String> ids = new HashSet<>();
        Matcher m = JOB_LINK.matcher(html);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    @Test
    void anOperatorFiltersTheEventsFollowsAJobAndPagesBack() {
        try (ConsoleBrowser browser = new ConsoleBrowser()) {
            browser.open(base + "/console");
            browser.awaitElement("#api_key").sendKeys(TestServer.ADMIN_KEY);
            browser.find("form.login button[type=submit]").click();
            browser.await("the Generate page", d -> browser.text("h1").equals("Generate"));

            browser.find("nav a[href='/console/events']").click();
            browser.await("the Events page", d -> browser.text("h1").equals("Events"));
            assertThat(browser.attribute("nav a[href='/console/events']", "aria-current"))
                    .isEqualTo("page");
            assertThat(browser.all("#event-rows tr[data-type]"))
                    .extracting(e -> e.getAttribute("data-type"))
                    .contains("job.created", "attempt.failed_over", "job.succeeded");
            seenByAPerson(browser);
            browser.screenshot("events");

            new Select(browser.find("#type")).selectByValue("attempt.failed_over");
            browser.find("form.filters button[type=submit]").click();
            browser.await(
                    "only failovers",
                    d -> browser.all("#event-rows tr[data-type]").stream()
                            .allMatch(row -> row.getAttribute("data-type").equals("attempt.failed_over")));
            WebElement row = browser.find("#event-rows tr[data-type='attempt.failed_over']");
            assertThat(row.getText()).contains("primary", "unavailable");

            new Select(browser.find("#type")).selectByValue("");
            new Select(browser.find("#provider")).selectByValue("backup");
            browser.find("form.filters button[type=submit]").click();
            browser.await(
                    "only the backup's events",
                    d -> browser.all("#event-rows tr[data-type] td:nth-child(4)").stream()
                            .allMatch(cell -> cell.getText().equals("backup")));

            new Select(browser.find("#provider")).selectByValue("");
            browser.find("#job_id").sendKeys(failedOver);
            browser.find("form.filters button[type=submit]").click();
            browser.await(
                    "only that job's events", d -> jobsLinked(d.getPageSource()).equals(Set.of(failedOver)));
            browser.find("#event-rows a[href='/console/jobs/" + failedOver + "']")
                    .click();
            browser.await("the job's trace", d -> browser.text("h1").startsWith("Job "));
            assertThat(browser.text("[data-testid=job-id]")).isEqualTo(failedOver);

            browser.open(base + "/console/events?limit=2");
            List<String> first = eventIds(browser);
            assertThat(first).hasSize(2);
            browser.find("a[rel=next]").click();
            browser.await("the older page", d -> !eventIds(browser).equals(first));
            assertThat(eventIds(browser)).hasSize(2).doesNotContainAnyElementsOf(first);
            seenByAPerson(browser);
        }
    }

    private static List<String> eventIds(ConsoleBrowser browser) {
        return browser.all("#event-rows tr[data-event-id]").stream()
                .map(e -> e.getAttribute("data-event-id"))
                .toList();
    }

    private static void seenByAPerson(ConsoleBrowser browser) {
        assertThat(browser.driver().getPageSource()).doesNotContain(TestServer.ADMIN_KEY);
        browser.assertAccessibleBasics();
    }

    @Test
    void throttledSignInsAreAKnownEventType() {
        assertThat(EventSource.AUDIT.types()).contains(SignInThrottle.EVENT);
    }

    @Test
    void aClientSeesOnlyItsOwnJobsEventsOnAStrictPage() {
        ConsoleClient client = ConsoleClient.signedIn(base, clientKey);
        HttpResponse<String> page = client.get("/console/events");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(jobsLinked(page.body())).containsExactly(clientJob);
        assertThat(page.body()).doesNotContain(clientKey, "data-type=\"breaker.", "data-type=\"provider.", "<script>");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("script-src 'self'")
                .doesNotContain("unsafe-inline");
        assertThat(client.get("/console/events?job_id=" + failedOver).body()).contains("No events match");

        HttpResponse<String> refused = client.get("/console/events?type=job.made_up");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("unknown event type");
        assertThat(client.get("/console/events?cursor=bm90LWEtY3Vyc29y").statusCode())
                .isEqualTo(400);
    }
}
