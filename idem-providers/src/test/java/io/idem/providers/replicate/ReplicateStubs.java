package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.environmentWith;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.EchoedCredentials;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A Replicate stand-in on WireMock, replaying the bodies vendor-apis §4 documents, and adapters
 * pointed at it. No test here calls the real Replicate.
 */
final class ReplicateStubs {
    static final String SECRET = "r8_test_token_do_not_print_55e1";
    static final String KEY_VARIABLE = "REPLICATE_API_TOKEN";
    static final String MODEL = "black-forest-labs/flux-schnell";
    static final String ID = "gm3qorzdhgbfurvjtvhg6dckhu";
    static final byte[] WEBP = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'};
    static final PollSchedule FAST = new PollSchedule(Duration.ofMillis(10), Duration.ofMillis(40));
    private static final ObjectMapper JSON = new ObjectMapper();

    static final HttpClient CLIENT = VendorStandIn.client();

    private ReplicateStubs() {}

    static WireMockExtension server() {
        return VendorStandIn.extension();
    }

    static ReplicateAdapter adapter(String baseUrl) {
        return adapter(baseUrl, InstantSource.system());
    }

    static ReplicateAdapter adapter(String baseUrl, InstantSource clock) {
        return new ReplicateAdapter(
                settings(URI.create(baseUrl)),
                CLIENT,
                environmentWith(KEY_VARIABLE, SECRET),
                VendorStandIn.REDACTOR,
                clock,
                FAST);
    }

    static ReplicateAdapter adapterWithoutKey(String baseUrl) {
        return new ReplicateAdapter(
                settings(URI.create(baseUrl)),
                CLIENT,
                name -> null,
                VendorStandIn.REDACTOR,
                InstantSource.system(),
                FAST);
    }

    static ProviderSettings settings(URI baseUrl) {
        return new ProviderSettings(
                "replicate",
                "replicate",
                baseUrl,
                Optional.of(KEY_VARIABLE),
                MODEL,
                Map.of(),
                Duration.ofSeconds(2),
                new BigDecimal("0.003"),
                true);
    }

    // --- vendor bodies (vendor-apis §4) ---

    /** A prediction as Replicate shows it; {@code base} is where its output and urls point. */
    static final class Prediction {
        private final ObjectNode node = JSON.createObjectNode();

        Prediction(String base, String id, String status) {
            node.put("id", id).put("model", MODEL).put("version", "hidden");
            node.putObject("input").put("prompt", "a cat").put("width", 1024).put("height", 1024);
            node.putNull("output");
            node.put("logs", "").putNull("error");
            node.put("status", status).put("source", "api").put("data_removed", false);
            node.put("created_at", "2026-01-01T00:00:00.000Z")
                    .putNull("started_at")
                    .putNull("completed_at");
            node.putNull("deadline");
            node.putObject("urls")
                    .put("get", base + "/v1/predictions/" + id)
                    .put("cancel", base + "/v1/predictions/" + id + "/cancel")
                    .put("web", "https://replicate.com/p/" + id);
            if (!status.equals("starting")) {
                started();
            }
            if (status.equals("succeeded")) {
                node.putArray("output").add(base + "/files/out-0.webp");
                node.putObject("metrics").put("predict_time", 1.2).put("total_time", 1.5);
            }
        }

        Prediction started() {
            node.put("started_at", "2026-01-01T00:00:01.000Z");
            return this;
        }

        Prediction unstarted() {
            node.putNull("started_at");
            return this;
        }

        Prediction prompt(String prompt) {
            ((ObjectNode) node.get("input")).put("prompt", prompt);
            return this;
        }

        /** A clip's prediction: its input asks for {@code seconds} of video. */
        Prediction duration(int seconds) {
            ((ObjectNode) node.get("input")).put("duration", seconds);
            return this;
        }

        Prediction model(String model) {
            node.put("model", model);
            return this;
        }

        Prediction error(String text) {
            node.put("error", text);
            return this;
        }

        Prediction dataRemoved() {
            node.put("data_removed", true);
            node.putObject("input");
            node.putNull("output");
            return this;
        }

        Prediction createdAt(String instant) {
            node.put("created_at", instant);
            return this;
        }

        Prediction fromTheWeb() {
            node.put("source", "web");
            return this;
        }

        /** What Replicate reports a finished run used: images made (official models) and seconds run. */
        Prediction metrics(int imageCount, double predictTime) {
            node.putObject("metrics").put("image_count", imageCount).put("predict_time", predictTime);
            return this;
        }

        Prediction withoutMetrics() {
            node.remove("metrics");
            return this;
        }

        String id() {
            return node.get("id").asText();
        }

        String json() {
            return node.toString();
        }
    }

    static Prediction prediction(String base, String status) {
        return new Prediction(base, ID, status);
    }

    static String problem(int status, String title, String detail) {
        return """
                {"type":"https://replicate.com/docs/errors","title":"%s","status":%d,"detail":"%s"}""".formatted(title, status, detail);
    }

    static String page(String... predictions) {
        return "{\"previous\":null,\"next\":null,\"results\":[" + String.join(",", predictions) + "]}";
    }

    // --- the prediction list as the invoice check reads it ---

    /**
     * Serves {@code pages} as Replicate's prediction list to the adapter's token: the first at the
     * day's query, each next one behind the {@code cursor} the page before names in its {@code next}
     * URL (as Replicate does, newest first, 100 a page). Any other token is answered with
     * Replicate's 401 problem, quoting what it was sent as a careless vendor might.
     */
    static void listing(WireMockExtension wm, List<List<Prediction>> pages) {
        wm.stubFor(list().atPriority(10)
                .willReturn(EchoedCredentials.answer(
                        401,
                        problem(
                                401,
                                "Unauthenticated",
                                "Invalid token. Authorization header was '{{{request.headers.Authorization}}}', node "
                                        + VendorStandIn.NODE_SECRET))));
        for (int i = 0; i < pages.size(); i++) {
            String next = i + 1 < pages.size()
                    ? "\"" + wm.baseUrl() + "/v1/predictions?cursor=page-" + (i + 2) + "\""
                    : "null";
            String body = "{\"previous\":null,\"next\":" + next + ",\"results\":["
                    + pages.get(i).stream().map(Prediction::json).collect(Collectors.joining(",")) + "]}";
            wm.stubFor(list().atPriority(1)
                    .withHeader("Authorization", equalTo("Bearer " + SECRET))
                    .withQueryParam("cursor", i == 0 ? absent() : equalTo("page-" + (i + 1)))
                    .willReturn(VendorStandIn.json(200, body)));
        }
    }

    // --- stubs ---

    static MappingBuilder create() {
        return post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"));
    }

    static MappingBuilder getPrediction() {
        return get(urlPathEqualTo("/v1/predictions/" + ID));
    }

    static MappingBuilder cancelPrediction() {
        return post(urlPathEqualTo("/v1/predictions/" + ID + "/cancel"));
    }

    static MappingBuilder list() {
        return get(urlPathEqualTo("/v1/predictions"));
    }

    static MappingBuilder media() {
        return get(urlPathEqualTo("/files/out-0.webp"));
    }

    static ResponseDefinitionBuilder webp() {
        return aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "image/webp")
                .withBody(WEBP);
    }

    // --- calls ---
    static GenerationCall aCall() {
        return aCall(MODEL, Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty());
    }

    static GenerationCall aCall(Duration timeout) {
        return aCall(MODEL, timeout, AttemptListener.NONE, Optional.empty());
    }

    static GenerationCall aCall(String model, Duration timeout, AttemptListener listener, Optional<URI> callback) {
        return new GenerationCall(
                "replicate",
                model,
                GenerationCall.Request.images("a cat", "1024x1024", 1),
                timeout,
                UUID.randomUUID().toString(),
                Optional.empty(),
                listener,
                callback);
    }

    static AttemptRef refFor(GenerationCall call, Optional<String> predictionId) {
        return new AttemptRef(call.provider(), call.reference(), predictionId, call.vendorModel(), Instant.now());
    }
}
