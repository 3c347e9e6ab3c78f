package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A video job's trace page shows the clip in a player, in a real headless Chromium. */
class ConsoleVideoTest {
    private static TestServer server;
    private static ConsoleBrowser browser;

    @BeforeAll
    static void start() {
        server = TestServer.start();
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
    void theTraceOfAVideoJobPlaysItsClip() {
        String id = server.post("/v1/videos", TestServer.ADMIN_KEY, "{\"prompt\": \"A paper boat\", \"seconds\": 4}")
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get("/v1/videos/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("status")
                        .asText()
                        .equals("completed"));
        String base = server.node().baseUrl();
        browser.open(base + "/console");
        browser.awaitElement("#api_key").sendKeys(TestServer.ADMIN_KEY);
        browser.find("form.login button[type=submit]").click();
        browser.await("the Generate page after sign-in", d -> browser.text("h1").equals("Generate"));

        browser.open(base + "/console/jobs/" + id);

        browser.awaitElement(".result video[data-testid=result-video]");
        assertThat(browser.attribute(".result video source", "type")).isEqualTo("video/mp4");
        assertThat(browser.attribute(".result video source", "src"))
                .contains("/v1/assets/")
                .contains("sig=");
        assertThat(browser.attribute(".result video", "aria-label")).contains("primary", "paper boat");
        assertThat(browser.all(".result img")).isEmpty();
        // the page's own policy lets the player load the clip from the server
        assertThat(browser.driver()
                        .executeScript(
                                "return fetch(arguments[0]).then(r => r.headers.get('Content-Type'))",
                                browser.attribute(".result video source", "src")))
                .isEqualTo("video/mp4");
    }
}
