package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.environmentWith;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.junit5.WireMockRuntimeInfo;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A fal stand-in on WireMock, replaying the bodies vendor-apis §3 documents, and adapters pointed at
 * it. No test here calls the real fal.
 */
final class FalStubs {
    static final String SECRET = "fal-key-do-not-print-91c2";
    static final String KEY_VARIABLE = "FAL_KEY";
    static final String ENDPOINT = "fal-ai/flux/dev";
    static final String APP = "/fal-ai/flux";
    static final String REQUEST_ID = "80e732af-660e-45cd-bd63-580e4f2a94cc";
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0};
    static final PollSchedule FAST = new PollSchedule(Duration.ofMillis(10), Duration.ofMillis(40));

    static final HttpClient CLIENT = VendorStandIn.client();

    private FalStubs() {}

    static WireMockExtension server() {
        return VendorStandIn.extension();
    }

    static FalAdapter adapter(String baseUrl) {
        return adapter(baseUrl, InstantSource.system());
    }

    static FalAdapter adapter(String baseUrl, InstantSource clock) {
        return new FalAdapter(
                settings(URI.create(baseUrl)),
                CLIENT,
                environmentWith(KEY_VARIABLE, SECRET),
                VendorStandIn.REDACTOR,
                clock,
                FAST);
    }

    static FalAdapter adapterWithoutKey(String baseUrl) {
        return new FalAdapter(
                settings(URI.create(baseUrl)),
                CLIENT,
                name -> null,
                VendorStandIn.REDACTOR,
                InstantSource.system(),
                FAST);
    }

    static ProviderSettings settings(URI baseUrl) {
        return new ProviderSettings(
                "fal",
                "fal",
                baseUrl,
                Optional.of(KEY_VARIABLE),
                ENDPOINT,
                Map.of(),
                Duration.ofSeconds(2),
                new BigDecimal("0.025"),
                true);
    }

    // --- vendor bodies (vendor-apis §3) ---

    static String submitted(WireMockRuntimeInfo wm) {
        String base = wm.getHttpBaseUrl() + APP + "/requests/" + REQUEST_ID;
        return """
                {"request_id":"%s","response_url":"%s","status_url":"%s/status","cancel_url":"%s/cancel","queue_position":0}""".formatted(REQUEST_ID, base, base, base);
    }

    static String status(String status, WireMockRuntimeInfo wm) {
        String responseUrl = wm.getHttpBaseUrl() + APP + "/requests/" + REQUEST_ID;
        return switch (status) {
            case "IN_QUEUE" -> """
                    {"status":"IN_QUEUE","queue_position":3,"response_url":"%s"}""".formatted(responseUrl);
            case "IN_PROGRESS" -> """
                    {"status":"IN_PROGRESS","logs":[{"timestamp":"2026-01-01T00:00:00Z","level":"INFO","source":"user","message":"step 1"}],"response_url":"%s"}""".formatted(responseUrl);
            default -> """
                    {"status":"COMPLETED","logs":null,"metrics":{"inference_time":1.23},"response_url":"%s","error":null,"error_type":null}""".formatted(responseUrl);
        };
    }

    static String completedWithError(String errorType, WireMockRuntimeInfo wm) {
        return """
                {"status":"COMPLETED","logs":null,"response_url":"%s","error":"request failed","error_type":"%s"}""".formatted(wm.getHttpBaseUrl() + APP + "/requests/" + REQUEST_ID, errorType);
    }

    static String output(WireMockRuntimeInfo wm) {
        return """
                {"images":[{"url":"%s/files/out-0.png","width":1024,"height":1024,"content_type":"image/png"}],"seed":42,"has_nsfw_concepts":[false],"prompt":"a cat"}""".formatted(wm.getHttpBaseUrl());
    }

    static String modelError(String type, String msg) {
        return """
                {"detail":[{"loc":["body","prompt"],"msg":"%s","type":"%s","url":"https://docs.fal.ai/errors#%s","ctx":{},"input":"a cat"}]}""".formatted(msg, type, type);
    }

    static String infraError(String detail, String errorType) {
        return """
                {"detail":"%s","error_type":"%s"}""".formatted(detail, errorType);
    }

    // --- the platform API's request listing, as the invoice check reads it ---

    static final String REQUESTS = "/v1/models/requests/by-endpoint";

    /**
     * One request in fal's listing ({@code expand=payloads}): sent at {@code sentAt}, started a
     * second later, ended three seconds later with {@code statusCode}; a success lists {@code
     * images} files in its output unless {@code withOutput} is false (payload storage off).
     */
    record Listed(String id, String sentAt, int statusCode, int images, boolean withOutput, int clipSeconds) {
        Listed(String id, String sentAt, int statusCode, int images, boolean withOutput) {
            this(id, sentAt, statusCode, images, withOutput, 0);
        }

        static Listed ok(String id, String sentAt) {
            return new Listed(id, sentAt, 200, 1, true);
        }

        Listed images(int count) {
            return new Listed(id, sentAt, statusCode, count, withOutput, clipSeconds);
        }

        Listed withoutOutput() {
            return new Listed(id, sentAt, statusCode, images, false, clipSeconds);
        }

        /** A video endpoint's request: its input asks for {@code seconds}, its output is a {@code video}. */
        Listed clip(int seconds) {
            return new Listed(id, sentAt, statusCode, 0, withOutput, seconds);
        }

        /** fal's status filter: {@code success} 2xx, {@code user_error} 4xx, {@code error} 5xx. */
        String status() {
            return statusCode < 300 ? "success" : statusCode < 500 ? "user_error" : "error";
        }

        private String input() {
            return clipSeconds > 0
                    ? "{\"prompt\":\"a cat\",\"duration\":" + clipSeconds + "}"
                    : "{\"prompt\":\"a cat\",\"num_images\":" + images + "}";
        }

        String json(String endpointId) {
            Instant sent = Instant.parse(sentAt);
            StringBuilder files = new StringBuilder();
            for (int i = 0; i < images; i++) {
                files.append(i == 0 ? "" : ",")
                        .append("{\"url\":\"https://v3.fal.media/files/out-%d.png\",\"content_type\":\"image/png\"}"
                                .formatted(i));
            }
            String output = !withOutput
                    ? "null"
                    : statusCode < 300 && clipSeconds > 0
                            ? "{\"video\":{\"url\":\"https://v3.fal.media/files/clip.mp4\"}}"
                            : statusCode < 300
                                    ? "{\"images\":[" + files + "],\"seed\":42}"
                                    : "{\"detail\":[{\"loc\":[\"body\"],\"msg\":\"failed\",\"type\":\"http_"
                                            + statusCode + "\"}]}";
            return """
                    {"request_id":"%s","endpoint_id":"%s","sent_at":"%s","started_at":"%s","ended_at":"%s",\
                    "status_code":%d,"duration":2.0,"json_input":%s,"json_output":%s}\
                    """.formatted(
                    id, endpointId, sentAt, sent.plusSeconds(1), sent.plusSeconds(3), statusCode, input(), output);
        }
    }

    /**
     * Serves {@code items} as fal's request listing of {@code endpointId} to the adapter's key, as
     * the platform API does: filtered by {@code status} when asked, {@code pageSize} a page, each
     * next page behind the {@code next_cursor} (the page number, base64) the page before names, with
     * {@code has_more}. Any other key is answered 401, quoting what it was sent.
     */
    static void requests(WireMockExtension wm, String endpointId, int pageSize, List<Listed> items) {
        wm.stubFor(get(urlPathEqualTo(REQUESTS))
                .atPriority(10)
                .willReturn(EchoedCredentials.answer(
                        401,
                        "{\"detail\":\"Invalid key. Authorization header was '{{{request.headers.Authorization}}}', node "
                                + VendorStandIn.NODE_SECRET + "\"}")));
        for (String filter : new String[] {null, "success", "user_error", "error"}) {
            List<Listed> shown = items.stream()
                    .filter(i -> filter == null || filter.equals(i.status()))
                    .toList();
            int pages = Math.max(1, (shown.size() + pageSize - 1) / pageSize);
            for (int k = 0; k < pages; k++) {
                List<Listed> page = shown.subList(k * pageSize, Math.min(shown.size(), (k + 1) * pageSize));
                boolean more = k + 1 < pages;
                String body = "{\"items\":["
                        + page.stream().map(i -> i.json(endpointId)).collect(Collectors.joining(","))
                        + "],\"next_cursor\":" + (more ? "\"" + cursor(k + 2) + "\"" : "null") + ",\"has_more\":"
                        + more + "}";
                wm.stubFor(get(urlPathEqualTo(REQUESTS))
                        .atPriority(1)
                        .withHeader("Authorization", equalTo("Key " + SECRET))
                        .withQueryParam("endpoint_id", equalTo(endpointId))
                        .withQueryParam("status", filter == null ? absent() : equalTo(filter))
                        .withQueryParam("cursor", k == 0 ? absent() : equalTo(cursor(k + 1)))
                        .willReturn(VendorStandIn.json(200, body)));
            }
        }
    }

    /** fal's cursor: the page number, base64. */
    static String cursor(int page) {
        return Base64.getEncoder().encodeToString(Integer.toString(page).getBytes(StandardCharsets.UTF_8));
    }

    // --- stubs ---

    static MappingBuilder submit() {
        return post(urlPathEqualTo("/" + ENDPOINT));
    }

    static MappingBuilder statusOf() {
        return get(urlPathEqualTo(APP + "/requests/" + REQUEST_ID + "/status"));
    }

    static MappingBuilder resultOf() {
        return get(urlPathEqualTo(APP + "/requests/" + REQUEST_ID));
    }

    static MappingBuilder media() {
        return get(urlPathEqualTo("/files/out-0.png"));
    }

    static ResponseDefinitionBuilder png() {
        return aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "image/png")
                .withBody(PNG);
    }

    // --- calls ---
    static GenerationCall aCall() {
        return aCall(Duration.ofSeconds(5), AttemptListener.NONE, Optional.empty());
    }

    static GenerationCall aCall(Duration timeout) {
        return aCall(timeout, AttemptListener.NONE, Optional.empty());
    }

    static GenerationCall aCall(Duration timeout, AttemptListener listener, Optional<URI> callback) {
        return aCall("a cat", timeout, listener, callback);
    }

    static GenerationCall aCall(String prompt, Duration timeout, AttemptListener listener, Optional<URI> callback) {
        return new GenerationCall(
                "fal",
                ENDPOINT,
                GenerationCall.Request.images(prompt, "1024x1024", 1),
                timeout,
                UUID.randomUUID().toString(),
                Optional.empty(),
                listener,
                callback);
    }

    static AttemptRef refFor(GenerationCall call, Optional<String> requestId) {
        return new AttemptRef(call.provider(), call.reference(), requestId, ENDPOINT, Instant.now());
    }
}
