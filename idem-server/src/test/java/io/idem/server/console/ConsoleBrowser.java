package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, which
 * {@code .ci/run} installs) with a throw-away profile, plus the checks a person would make.
 */
final class ConsoleBrowser implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 900;

    private final Path profile;
    private final ChromeDriver driver;
    private final Path screenshots;

    ConsoleBrowser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("the console tests need Debian's chromium and chromium-driver"
                    + " (apt-get install -y chromium chromium-driver; .ci/run does this)");
        }
        try {
            profile = Files.createTempDirectory("idem-chromium");
            screenshots = Path.of(System.getProperty("idem.screenshots.dir", "target/console-screenshots"));
            Files.createDirectories(screenshots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--window-size=" + WIDTH + "," + HEIGHT);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The text of the first match, read again if a live update replaced the element meanwhile. */
    String text(String css) {
        return await(
                "the text of " + css, d -> d.findElement(By.cssSelector(css)).getText());
    }

    String attribute(String css, String name) {
        return await(
                "attribute " + name + " of " + css,
                d -> d.findElement(By.cssSelector(css)).getAttribute(name));
    }

    <T> T await(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(20))
                .withMessage(what)
                .pollingEvery(Duration.ofMillis(100))
                .ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    /** Waits until an element matching {@code css} exists. */
    WebElement awaitElement(String css) {
        return await("waiting for " + css, d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.getFirst();
        });
    }

    /** The whole page, however tall, into {@code <dir>/<name>.png} (Chromium's own full-page capture). */
    void screenshot(String name) {
        Number width = (Number) driver.executeScript("return document.documentElement.clientWidth");
        Number height = (Number) driver.executeScript("return document.documentElement.scrollHeight");
        Map<String, Object> shot = driver.executeCdpCommand(
                "Page.captureScreenshot",
                Map.of(
                        "format",
                        "png",
                        "captureBeyondViewport",
                        true,
                        "clip",
                        Map.of("x", 0, "y", 0, "width", width.intValue(), "height", height.intValue(), "scale", 1)));
        try {
            Files.write(screenshots.resolve(name + ".png"), Base64.getDecoder().decode((String) shot.get("data")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Accessibility basics on the current page: every input labelled, every button and link
     * reachable by keyboard with a name, every state badge carrying words (not colour alone).
     */
    @SuppressWarnings("unchecked")
    void assertAccessibleBasics() {
        List<String> problems = (List<String>) driver.executeScript("""
                const problems = [];
                const snippet = el => el.outerHTML.slice(0, 100);
                document.querySelectorAll('input:not([type=hidden]), select, textarea').forEach(el => {
                  if (!(el.labels && el.labels.length) && !el.getAttribute('aria-label')) problems.push('unlabelled: ' + snippet(el));
                });
                document.querySelectorAll('button, a[href]').forEach(el => {
                  if (el.disabled || el.tabIndex < 0) problems.push('not reachable by keyboard: ' + snippet(el));
                  if (!el.textContent.trim() && !el.getAttribute('aria-label')) problems.push('no accessible name: ' + snippet(el));
                });
                document.querySelectorAll('.badge, .billable').forEach(el => {
                  if (!/[a-z]{2,}/i.test(el.textContent)) problems.push('state told without words: ' + snippet(el));
                });
                return problems;
                """);
        assertThat(problems)
                .as("accessibility problems on " + driver.getCurrentUrl())
                .isEmpty();
    }

    /** Presses Tab until {@code css} has the focus (at most 30 times), as a keyboard user would. */
    void tabTo(String css) {
        WebElement target = find(css);
        for (int i = 0; i < 30; i++) {
            if (target.equals(driver.switchTo().activeElement())) {
                return;
            }
            driver.switchTo().activeElement().sendKeys(org.openqa.selenium.Keys.TAB);
        }
        throw new AssertionError("Tab never reached " + css);
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temp profile left behind is harmless
            }
        }
    }
}
