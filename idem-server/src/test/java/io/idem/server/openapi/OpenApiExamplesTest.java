package io.idem.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import io.idem.server.openapi.OpenApiSpec.Documented;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every documented request of a safe route (each GET, built from its parameters' examples, and each
 * request-body example of {@code POST /v1/jobs}, {@code /v1/videos}, {@code /v1/chat/completions}
 * and {@code /v1/route/check}) sent to a live node with the admin key: the status is one the document lists
 * for the route, the media type one it lists for that status, and a JSON body has every top-level
 * field that status's schema requires.
 */
class OpenApiExamplesTest {
    private static final Set<String> SAFE_POSTS =
            Set.of("/v1/jobs", "/v1/videos", "/v1/chat/completions", "/v1/route/check");
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}]+)}");

    private static TestServer server;
    /**
     * Real ids for path parameters whose documented example names nothing on a fresh node, by the
     * path template up to the parameter ({@code /v1/jobs/{id}} serves {@code /v1/jobs/{id}/events} too).
     */
    private static final Map<String, String> FIXTURES = new HashMap<>();

    /** One request built from the document. */
    record Call(String name, String path, String body) {}

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("IDEM_WEBHOOKS_ALLOW_PRIVATE_URLS", "true"));
        String job = finished("/v1/jobs", "{\"prompt\": \"a fixture\"}", "state", "succeeded");
        String url = server.get("/v1/jobs/" + job, TestServer.ADMIN_KEY)
                .body()
                .at("/result/images/0/url")
                .asText();
        FIXTURES.put("/v1/jobs/{id}", job);
        // A completed video, so /v1/videos/{id}/content answers with its clip.
        FIXTURES.put(
                "/v1/videos/{id}",
                finished("/v1/videos", "{\"prompt\": \"a fixture clip\", \"seconds\": \"4\"}", "status", "completed"));
        FIXTURES.put("/v1/assets/{id}", url.substring(url.indexOf("/v1/assets/") + 11, url.indexOf('?')));
        // Loopback, refused at once, for an event no example causes: no delivery leaves the machine.
        FIXTURES.put(
                "/v1/webhooks/{id}",
                server.post(
                                "/v1/webhooks",
                                TestServer.ADMIN_KEY,
                                "{\"url\": \"http://127.0.0.1:9/idem\", \"event_types\": [\"job.canceled\"]}")
                        .body()
                        .get("id")
                        .asText());
    }

    /** The id of what {@code body} posted to {@code collection} makes, once its {@code field} reads {@code done}. */
    private static String finished(String collection, String body, String field, String done) {
        String id = server.post(collection, TestServer.ADMIN_KEY, body)
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> server.get(collection + "/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get(field)
                        .asText()
                        .equals(done));
        return id;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everySafeRequestExampleIsAnsweredAsDocumented() {
        List<String> failures = new ArrayList<>();
        int sent = 0;
        for (Documented op : OpenApiSpec.operations(OpenApiSpec.parse(true).getOpenAPI())) {
            if (!op.method().equals("GET") && !(op.method().equals("POST") && SAFE_POSTS.contains(op.path()))) {
                continue;
            }
            for (Call call : calls(op, failures)) {
                var reply = server.send(op.method(), call.path(), TestServer.ADMIN_KEY, call.body(), Map.of());
                Optional<String> wrong = mismatch(op, reply);
                wrong.ifPresent(w -> failures.add(op.route() + " (" + call.name() + ": " + call.path() + "): " + w
                        + "; body: " + clip(reply.raw())));
                sent++;
            }
        }
        assertThat(failures)
                .as("documented requests answered otherwise than documented")
                .isEmpty();
        assertThat(sent).as("requests sent").isGreaterThanOrEqualTo(25);
    }

    /** The GET built from the parameters' examples, or one call per request-body example. */
    private static List<Call> calls(Documented op, List<String> failures) {
        List<Parameter> parameters = op.operation().getParameters() == null
                ? List.of()
                : op.operation().getParameters();
        String path = concrete(op, parameters, failures);
        if (op.method().equals("GET")) {
            return List.of(new Call("parameter examples", path + query(parameters), null));
        }
        MediaType json = op.operation().getRequestBody().getContent().get("application/json");
        if (json == null || json.getExamples() == null || json.getExamples().isEmpty()) {
            failures.add(op.route() + ": no request example to send");
            return List.of();
        }
        List<Call> calls = new ArrayList<>();
        json.getExamples().forEach((name, example) -> calls.add(new Call(name, path, text(example.getValue()))));
        return calls;
    }

    private static String concrete(Documented op, List<Parameter> parameters, List<String> failures) {
        Matcher m = PATH_PARAMETER.matcher(op.path());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = FIXTURES.get(op.path().substring(0, m.end()));
            if (value == null) {
                value = parameters.stream()
                        .filter(p -> p.getIn().equals("path") && p.getName().equals(m.group(1)))
                        .map(p -> p.getExample() == null ? null : p.getExample().toString())
                        .filter(v -> v != null)
                        .findFirst()
                        .orElse(null);
            }
            if (value == null) {
                failures.add(op.route() + ": path parameter '" + m.group(1) + "' has no example");
                value = "missing";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String query(List<Parameter> parameters) {
        StringBuilder out = new StringBuilder();
        for (Parameter p : parameters) {
            if (p.getIn().equals("query") && p.getExample() != null) {
                out.append(out.isEmpty() ? '?' : '&')
                        .append(p.getName())
                        .append('=')
                        .append(p.getExample());
            }
        }
        return out.toString();
    }

    /** What about this reply the document does not describe, if anything. */
    private static Optional<String> mismatch(Documented op, TestServer.Reply reply) {
        ApiResponse response = op.operation().getResponses().get(String.valueOf(reply.status()));
        if (response == null) {
            return Optional.of("status " + reply.status() + " is not documented (documented: "
                    + op.operation().getResponses().keySet() + ")");
        }
        if (response.getContent() == null || response.getContent().isEmpty()) {
            return reply.raw().isEmpty() ? Optional.empty() : Optional.of("a body where none is documented");
        }
        String type = Optional.ofNullable(reply.header("Content-Type"))
                .orElse("")
                .split(";")[0]
                .trim();
        Optional<Map.Entry<String, MediaType>> documented = response.getContent().entrySet().stream()
                .filter(e -> matches(e.getKey(), type))
                .findFirst();
        if (documented.isEmpty()) {
            return Optional.of("media type '" + type + "' is not documented for " + reply.status() + " (documented: "
                    + response.getContent().keySet() + ")");
        }
        if (!type.equals("application/json")) {
            return Optional.empty();
        }
        return RequiredFields.missing(documented.get().getValue().getSchema(), reply.body());
    }

    private static boolean matches(String documented, String actual) {
        return documented.endsWith("/*")
                ? actual.startsWith(documented.substring(0, documented.length() - 1))
                : documented.equals(actual);
    }

    private static String text(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String clip(String raw) {
        return raw.length() > 300 ? raw.substring(0, 300) + "…" : raw;
    }
}
