package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The README's 30-second demo, driven through a real headless Chromium and checked by what a
 * person sees: failover (however often the visitor clicks), a free replay, a parked unknown outcome
 * that the reconcile sweep leaves in the review queue, and an operator's decision. The node runs with
 * the demo's own defaults, only its reconcile sweep every second instead of every 30 s. Takes the
 * screenshots of docs/screenshots (into target/ unless {@code idem.screenshots.dir} is set).
 */
class ConsoleDemoTest {
    private static TestServer server;
    private static ConsoleBrowser browser;
    private static String base;

    @BeforeAll
    static void start() {
        // no breaker threshold of the tests' own: the demo's default, as ./idem serve has it
        server = TestServer.start(Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "", "RECONCILE_INTERVAL_SECONDS", "1"));
        base = server.node().baseUrl();
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
    void theThirtySecondDemo() {
        signIn();
        generateWithPrimaryAnswering503();
        String failedOver = clickingHttp503AgainAndAgainFailsOverEveryTime(10);
        replayIsFreeAndReturnsTheSameJob(failedOver);
        traceShowsTimelineAttemptsAndImage(failedOver);
        String parked = interruptedConnectionParksInsteadOfRetrying();
        server.awaitSweeps(3);
        jobsListIsLiveAndFilters(failedOver, parked);
        operatorResolvesFromTheReviewQueue(parked);
        providersShowHealthAndSpend();
        signOut();
    }

    private void signIn() {
        browser.open(base + "/console");
        browser.awaitElement("#api_key").sendKeys(TestServer.ADMIN_KEY);
        seenByAPerson();
        browser.find("form.login button[type=submit]").click();
        browser.await("the Generate page after sign-in", d -> browser.text("h1").equals("Generate"));
        assertThat(browser.text(".who")).contains("admin");
    }

    private void generateWithPrimaryAnswering503() {
        new Select(browser.find("#simulate_primary")).selectByVisibleText("HTTP 503");
        browser.driver().executeScript("arguments[0].focus()", browser.find("#simulate_primary"));
        browser.tabTo("button[value=generate]");
        browser.driver().switchTo().activeElement().sendKeys(Keys.ENTER);

        browser.awaitElement("#live-trace article.trace[data-state=succeeded]");
        assertThat(browser.text("[data-testid=path]")).isEqualTo("primary → backup");
        assertThat(browser.text("[data-testid=provider-calls]")).isEqualTo("2");
        assertThat(browser.text("#live-trace .badge[data-state]")).contains("succeeded");
        assertThat(browser.text("table.attempts tr[data-provider=primary]"))
                .contains("failed", "unavailable", "503", "no");
        assertThat(browser.text("table.attempts tr[data-provider=backup]")).contains("succeeded", "yes");
        seenByAPerson();
    }

    /** A visitor who keeps clicking: every job still shows {@code primary → backup} (no breaker opens). */
    private String clickingHttp503AgainAndAgainFailsOverEveryTime(int clicks) {
        String jobId = browser.text("[data-testid=job-id]");
        for (int click = 1; click <= clicks; click++) {
            String before = jobId;
            assertThat(new Select(browser.find("#simulate_primary"))
                            .getFirstSelectedOption()
                            .getText())
                    .isEqualTo("HTTP 503");
            browser.find("button[value=generate]").click();
            jobId = browser.await(
                    "click " + click + "'s new job",
                    d -> browser.text("[data-testid=job-id]").equals(before)
                            ? null
                            : browser.text("[data-testid=job-id]"));
            browser.awaitElement("#live-trace article.trace[data-state=succeeded]");
            assertThat(browser.text("[data-testid=path]")).as("click " + click).isEqualTo("primary → backup");
            assertThat(browser.text("[data-testid=job-id]")).isEqualTo(jobId);
        }
        return jobId;
    }

    private void replayIsFreeAndReturnsTheSameJob(String jobId) {
        long primaryBills = server.node().fakes().get("primary").ledger().size();
        long backupBills = server.node().fakes().get("backup").ledger().size();
        browser.find("button[value=replay]").click();
        browser.awaitElement("#submission[data-replayed=true]");
        assertThat(browser.text("#submission")).contains("Replayed", "original job");
        assertThat(browser.text("[data-testid=job-id]")).isEqualTo(jobId);
        assertThat(browser.text("[data-testid=provider-calls]")).isEqualTo("2");
        assertThat(server.node().fakes().get("primary").ledger()).hasSize((int) primaryBills);
        assertThat(server.node().fakes().get("backup").ledger()).hasSize((int) backupBills);
        seenByAPerson();
        browser.screenshot("generate");
    }

    private void traceShowsTimelineAttemptsAndImage(String jobId) {
        browser.find("a[href='/console/jobs/" + jobId + "']").click();
        browser.await("the job's own page", d -> browser.text("h1").startsWith("Job "));
        assertThat(browser.text("[data-testid=job-id]")).isEqualTo(jobId);
        assertThat(browser.all(".timeline li[data-type]"))
                .extracting(e -> e.getAttribute("data-type"))
                .contains("job.created", "attempt.failed_over", "job.succeeded");
        WebElement image = browser.find(".result img");
        browser.await(
                "the result image to load",
                d -> ((Number) browser.driver().executeScript("return arguments[0].naturalWidth", image)).intValue()
                        > 0);
        assertThat(image.getAttribute("alt")).contains("backup", "lighthouse");
        seenByAPerson();
        browser.screenshot("trace");
    }

    private String interruptedConnectionParksInsteadOfRetrying() {
        browser.open(base + "/console/generate");
        new Select(browser.find("#simulate_primary")).selectByVisibleText("Connection interrupted");
        browser.find("button[value=generate]").click();
        browser.awaitElement("#live-trace article.trace[data-state=manual_review]");
        assertThat(browser.text("#live-trace .badge[data-state]")).contains("manual review");
        assertThat(browser.text(".review-note")).contains("unconfirmed", "no second call");
        assertThat(browser.text("[data-testid=path]")).isEqualTo("primary");
        assertThat(browser.text("[data-testid=provider-calls]")).isEqualTo("1");
        assertThat(browser.text("table.attempts tr[data-provider=primary]")).contains("unconfirmed", "unknown");
        seenByAPerson();
        return browser.text("[data-testid=job-id]");
    }

    private void jobsListIsLiveAndFilters(String failedOver, String parked) {
        browser.open(base + "/console/jobs");
        assertThat(browser.attribute("tr[data-job-id='" + failedOver + "']", "data-state"))
                .isEqualTo("succeeded");
        assertThat(browser.text("tr[data-job-id='" + parked + "']")).contains("manual review");

        String fresh = server.post("/v1/jobs", TestServer.ADMIN_KEY, """
                        {"prompt": "A paper boat on a calm lake", "timeout": 3}""")
                .body()
                .get("id")
                .asText();
        browser.awaitElement("tr[data-job-id='" + fresh + "'][data-state=succeeded]");
        seenByAPerson();
        browser.screenshot("jobs");

        new Select(browser.find("#state")).selectByVisibleText("manual review");
        browser.await(
                "only parked jobs listed", d -> browser.all("tr[data-job-id]").size() == 1);
        assertThat(browser.attribute("tr[data-job-id]", "data-job-id")).isEqualTo(parked);
        assertThat(browser.driver().getCurrentUrl()).contains("state=manual_review");
    }

    private void operatorResolvesFromTheReviewQueue(String parked) {
        browser.find("nav a[href='/console/review']").click();
        WebElement item = browser.awaitElement("article.review-item[data-job-id='" + parked + "']");
        assertThat(item.getText()).contains("unconfirmed", "primary", "Waiting for");
        String note = "Vendor support confirms the dropped call was never rendered and will not be billed.";
        item.findElement(By.cssSelector("textarea[name=note]")).sendKeys(note);
        seenByAPerson();
        browser.screenshot("review");

        item.findElement(By.cssSelector("button[value=fail]")).click();
        browser.await(
                "the decision's notice",
                d -> browser.all(".notice").stream().anyMatch(e -> e.getText().contains("Decision recorded")));
        assertThat(browser.all("article.review-item[data-job-id='" + parked + "']"))
                .isEmpty();

        browser.find("a[href='/console/jobs/" + parked + "']").click();
        browser.awaitElement("article.trace[data-state=failed]");
        assertThat(browser.text(".timeline li[data-type='job.resolved']"))
                .contains("Operator decision", "manual review → failed", "fail", note);
        assertThat(browser.text("[data-testid=provider-calls]")).isEqualTo("1");
        seenByAPerson();
    }

    private void providersShowHealthAndSpend() {
        browser.find("nav a[href='/console/providers']").click();
        String primary = browser.text("tr[data-provider=primary]");
        assertThat(primary).contains("fake", "standard", "closed", "error rate", "p95", "billed", "none set");
        assertThat(browser.text("tr[data-provider=primary] td .badge").replaceAll("\\s+", " "))
                .isIn("✓ healthy", "? unknown");
        assertThat(browser.text("tr[data-provider=backup]")).contains("closed", "billed");
        seenByAPerson();
        browser.screenshot("providers");
    }

    private void signOut() {
        browser.find("form.signout button").click();
        browser.awaitElement("#api_key");
        browser.open(base + "/console/jobs");
        browser.awaitElement("#api_key");
    }

    /** What a person could see or read on this page never includes the API key; the basics of access hold. */
    private void seenByAPerson() {
        assertThat(browser.driver().getPageSource()).doesNotContain(TestServer.ADMIN_KEY);
        browser.assertAccessibleBasics();
    }
}
