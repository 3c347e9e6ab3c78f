package io.idem.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A failure inside a handler is one logged 500 in the error shape, whatever was thrown. */
class ApiErrorsTest {
    private Javalin app;
    private ListAppender<ILoggingEvent> logged;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static void recurse(int depth) {
        recurse(depth + 1);
    }

    @BeforeEach
    void start() {
        logged = new ListAppender<>();
        logged.start();
        ((Logger) LoggerFactory.getLogger(ApiErrors.class)).addAppender(logged);
        app = Javalin.create(c -> {
                    c.startup.showJavalinBanner = false;
                    ApiErrors.install(c);
                    c.routes.get("/overflow", ctx -> recurse(0));
                    c.routes.get("/npe", ctx -> {
                        throw new NullPointerException("bug");
                    });
                    c.routes.get("/assertion", ctx -> {
                        throw new AssertionError("invariant broken");
                    });
                })
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        app.stop();
        ((Logger) LoggerFactory.getLogger(ApiErrors.class)).detachAppender(logged);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertInternalError(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).contains("application/json");
        JsonNode error = Json.MAPPER.readTree(response.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("internal_error");
        assertThat(error.path("request_id").asText())
                .isEqualTo(response.headers().firstValue("X-Request-Id").orElseThrow());
        assertThat(response.body()).doesNotContain("recurse").doesNotContain("bug");
    }

    @Test
    void aStackOverflowIsOneLogged500WithAClippedStack() throws Exception {
        assertInternalError(get("/overflow"));
        assertThat(logged.list).hasSize(1);
        ILoggingEvent event = logged.list.getFirst();
        assertThat(event.getFormattedMessage()).contains("request req_");
        assertThat(event.getThrowableProxy().getStackTraceElementProxyArray()).hasSizeLessThanOrEqualTo(40);
        assertThat(event.getThrowableProxy().getMessage()).contains("StackOverflowError");
    }

    @Test
    void anErrorOtherThanStackOverflowIsAlsoA500InTheShape() throws Exception {
        assertInternalError(get("/assertion"));
        assertThat(logged.list).hasSize(1);
    }

    @Test
    void anExceptionIsOneLogged500NamingTheRoute() throws Exception {
        assertInternalError(get("/npe"));
        assertThat(logged.list).hasSize(1);
        assertThat(logged.list.getFirst().getFormattedMessage()).contains("GET /npe");
    }

    @Test
    void aNewRequestIdIsReqAndTwentyHexDigitsAndNeverRepeats() {
        var ids = java.util.stream.IntStream.range(0, 10_000)
                .mapToObj(i -> ApiErrors.newRequestId())
                .toList();
        assertThat(ids).allMatch(id -> id.matches("req_[0-9a-f]{20}"));
        assertThat(ids).doesNotHaveDuplicates();
    }
}
