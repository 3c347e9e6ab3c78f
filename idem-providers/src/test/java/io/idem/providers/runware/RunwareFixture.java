package io.idem.providers.runware;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.http.VendorStandIn.environmentWith;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.CallBuilder;
import io.idem.providers.http.VendorStandIn;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A WireMock stand-in for Runware's single endpoint, a real HTTP client, and adapters pointed at it.
 * Register it on a static field with {@code @RegisterExtension}.
 */
final class RunwareFixture extends VendorStandIn {
    static final String KEY_ENV = "IDEM_TEST_RUNWARE_KEY";
    static final String SECRET = "rw-test-do-not-print-91c2";
    static final String MODEL = "runware:101@1";
    static final BigDecimal PRICE = new BigDecimal("0.0038");
    static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F'};
    static final String JPEG_BASE64 = Base64.getEncoder().encodeToString(JPEG);
    static final RunwareTuning TUNING = new RunwareTuning(
            Duration.ofMillis(20),
            Duration.ofMillis(60),
            // Generous: the first exchange with a cold WireMock on a busy machine takes seconds.
            Duration.ofSeconds(8),
            Duration.ofSeconds(5),
            Duration.ofHours(1),
            Duration.ofSeconds(2),
            4096);

    URI baseUrl() {
        return URI.create(vendor.baseUrl() + "/v1");
    }

    RunwareAdapter adapter() {
        return adapterAt(baseUrl(), TUNING);
    }

    RunwareAdapter adapter(RunwareTuning tuning) {
        return adapterAt(baseUrl(), tuning);
    }

    RunwareAdapter adapterAt(URI baseUrl, RunwareTuning tuning) {
        return new RunwareAdapter(settings(baseUrl), client, withKey(), REDACTOR, tuning, InstantSource.system());
    }

    RunwareAdapter adapterWithEnvironment(UnaryOperator<String> environment) {
        return new RunwareAdapter(settings(baseUrl()), client, environment, REDACTOR, TUNING, InstantSource.system());
    }

    static UnaryOperator<String> withKey() {
        return environmentWith(KEY_ENV, SECRET);
    }

    static ProviderSettings settings(URI baseUrl) {
        return new ProviderSettings(
                "runware",
                "runware",
                baseUrl,
                Optional.of(KEY_ENV),
                MODEL,
                Map.of("flux-dev", "runware:101@1"),
                Duration.ofSeconds(2),
                PRICE,
                true);
    }

    /** The submit of task {@code task} answers with {@code response}. */
    void onSubmit(String task, ResponseDefinitionBuilder response) {
        vendor.stubFor(submit(task).willReturn(response));
    }

    /** A getResponse about {@code task} answers with {@code response}. */
    void onLookup(String task, ResponseDefinitionBuilder response) {
        vendor.stubFor(lookup(task).willReturn(response));
    }

    static MappingBuilder submit(String task) {
        return post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("imageInference")))
                .withRequestBody(matchingJsonPath("$[0].taskUUID", equalTo(task)));
    }

    static MappingBuilder lookup(String task) {
        return post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("getResponse")))
                .withRequestBody(matchingJsonPath("$[0].taskUUID", equalTo(task)));
    }

    static String accepted(String task) {
        return "{\"data\": [{\"taskType\": \"imageInference\", \"taskUUID\": \"" + task + "\"}]}";
    }

    static String processing(String task) {
        return "{\"data\": [{\"taskType\": \"imageInference\", \"taskUUID\": \"" + task
                + "\", \"status\": \"processing\"}]}";
    }

    static String succeeded(String task) {
        return succeeded(task, 1);
    }

    /** A getResponse answer with {@code images} finished generations, each priced by Runware. */
    static String succeeded(String task, int images) {
        String item = """
                {"taskType": "imageInference", "taskUUID": "%s", "status": "success",
                  "imageUUID": "b7db282d-2943-4f12-992f-77df3ad3ec71", "imageBase64Data": "%s",
                  "seed": 1234, "cost": 0.0013}
                """.formatted(task, JPEG_BASE64);
        return "{\"data\": [" + String.join(", ", Collections.nCopies(images, item)) + "]}";
    }

    static String error(String task, String code, String message) {
        return """
                {"errors": [{"code": "%s", "message": "%s", "taskType": "imageInference", "taskUUID": "%s"}]}
                """.formatted(code, message, task);
    }

    static URI closedPort() throws IOException {
        return URI.create(VendorStandIn.closedOrigin() + "/v1");
    }

    static CallBuilder aCall() {
        return new CallBuilder("runware", MODEL);
    }

    static AttemptRef refFor(GenerationCall call, Instant startedAt) {
        return new AttemptRef(call.provider(), call.reference(), Optional.empty(), MODEL, startedAt);
    }
}
