package io.idem.providers.veo;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.VideoParams;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.http.VendorStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A stand-in for the Gemini API's Veo operations as googleapis/python-genai speaks to them
 * (models.generate_videos → {@code :predictLongRunning}, operations.get → {@code GET
 * /v1beta/<name>}, files download): every route wants {@code x-goog-api-key}; without the right one
 * it answers Google's 403 PERMISSION_DENIED. The file download redirects to storage, which must be
 * asked without the key.
 */
final class VeoStandIn extends VendorStandIn {
    static final String KEY_ENV = "IDEM_TEST_GEMINI_KEY";
    static final String KEY = "gemini-test-key-do-not-print-44af";
    static final String MODEL = "veo-3.1-generate-001";
    static final String OPERATION = "models/" + MODEL + "/operations/op-123";
    static final BigDecimal PER_SECOND = new BigDecimal("0.40");
    static final byte[] CLIP = "\0\0\0\u0018ftypmp42veo-clip".getBytes(StandardCharsets.ISO_8859_1);
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10};

    VeoAdapter adapter() {
        return new VeoAdapter(
                settings(),
                client,
                environmentWith(KEY_ENV, KEY),
                REDACTOR,
                InstantSource.system(),
                new PollSchedule(Duration.ofMillis(20), Duration.ofMillis(60)));
    }

    ProviderSettings settings() {
        return new ProviderSettings(
                "veo",
                VeoVendor.NAME,
                new ProviderSettings.Endpoint(
                        URI.create(vendor.baseUrl()), Optional.of(KEY_ENV), Duration.ofSeconds(2)),
                MODEL,
                Map.of(),
                new PricingModel.PerOutputSecond(PER_SECOND),
                true,
                Capabilities.ANY,
                Optional.empty());
    }

    static GenerationCall call(VideoParams video, AttemptListener listener, Duration timeout) {
        return new GenerationCall(
                "veo",
                null,
                new GenerationCall.Request(
                        "A heron lifts off a lake", JobKind.VIDEO, video.size(), 1, Optional.of(video)),
                timeout,
                UUID.randomUUID().toString(),
                Optional.empty(),
                listener);
    }

    void denyWrongKeys() {
        vendor.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(
                        com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching("/v1beta/.*"))
                .atPriority(10)
                .willReturn(json(403, error(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers"))));
    }

    void onSubmit(ResponseDefinitionBuilder answer) {
        denyWrongKeys();
        vendor.stubFor(post(urlEqualTo("/v1beta/models/" + MODEL + ":predictLongRunning"))
                .atPriority(1)
                .withHeader(VeoAdapter.KEY_HEADER, equalTo(KEY))
                .willReturn(answer));
    }

    void onOperation(ResponseDefinitionBuilder answer) {
        denyWrongKeys();
        vendor.stubFor(get(urlEqualTo("/v1beta/" + OPERATION))
                .atPriority(1)
                .withHeader(VeoAdapter.KEY_HEADER, equalTo(KEY))
                .willReturn(answer));
    }

    /** The file route redirects (key required); storage serves the clip only to a request without the key. */
    void serveClip() {
        vendor.stubFor(get(urlEqualTo("/v1beta/files/f-1:download?alt=media"))
                .atPriority(1)
                .withHeader(VeoAdapter.KEY_HEADER, equalTo(KEY))
                .willReturn(aResponse().withStatus(302).withHeader("Location", "/storage/f-1.mp4")));
        vendor.stubFor(get(urlEqualTo("/storage/f-1.mp4"))
                .withHeader(VeoAdapter.KEY_HEADER, absent())
                .willReturn(aResponse().withHeader("Content-Type", "video/mp4").withBody(CLIP)));
    }

    void serveImages() {
        vendor.stubFor(get(urlEqualTo("/img/first.png"))
                .willReturn(aResponse().withHeader("Content-Type", "image/png").withBody(PNG)));
        vendor.stubFor(get(urlEqualTo("/img/last.png"))
                .willReturn(aResponse().withHeader("Content-Type", "image/png").withBody(PNG)));
    }

    static String accepted() {
        return "{\"name\":\"" + OPERATION + "\"}";
    }

    static String running() {
        return "{\"name\":\"" + OPERATION + "\",\"metadata\":{}}";
    }

    String done() {
        return """
                {"name":"%s","done":true,"response":{"@type":"type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse",
                 "generateVideoResponse":{"generatedSamples":[{"video":{"uri":"%s/v1beta/files/f-1:download?alt=media"}}]}}}
                """.formatted(OPERATION, vendor.baseUrl());
    }

    static String filtered() {
        return """
                {"name":"%s","done":true,"response":{"generateVideoResponse":{"raiMediaFilteredCount":1,
                 "raiMediaFilteredReasons":["The prompt could not be submitted."]}}}
                """.formatted(OPERATION);
    }

    static String failed(int code) {
        return "{\"name\":\"" + OPERATION + "\",\"done\":true,\"error\":{\"code\":" + code
                + ",\"message\":\"op failed\"}}";
    }

    static String error(int code, String status, String message) {
        return "{\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\",\"status\":\"" + status + "\"}}";
    }
}
