package io.idem.providers.veo;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.AnswerRow;
import io.idem.providers.http.VideoStandIn;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The Veo adapter against a stand-in of the Gemini API's long-running operations. */
class VeoAdapterTest {
    @RegisterExtension
    static final VeoStandIn VEO = new VeoStandIn();

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final VideoParams EIGHT_SECONDS = new VideoParams(
            8,
            "1080p",
            "9:16",
            Optional.empty(),
            Optional.of(7L),
            Optional.of("text overlays"),
            Optional.empty(),
            Optional.empty(),
            true);

    @Test
    void anOperationIsPolledUntilDoneAndItsClipStreamedToDiskPricedPerSecond() throws Exception {
        VEO.onSubmit(json(200, VeoStandIn.accepted()));
        VEO.vendor.stubFor(
                com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/v1beta/" + VeoStandIn.OPERATION))
                        .atPriority(1)
                        .inScenario("render")
                        .whenScenarioStateIs(Scenario.STARTED)
                        .withHeader(VeoAdapter.KEY_HEADER, equalTo(VeoStandIn.KEY))
                        .willReturn(json(200, VeoStandIn.running()))
                        .willSetStateTo("done"));
        VEO.vendor.stubFor(
                com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/v1beta/" + VeoStandIn.OPERATION))
                        .atPriority(1)
                        .inScenario("render")
                        .whenScenarioStateIs("done")
                        .withHeader(VeoAdapter.KEY_HEADER, equalTo(VeoStandIn.KEY))
                        .willReturn(json(200, VEO.done())));
        VEO.serveClip();
        List<String> submitted = new ArrayList<>();

        Outcome outcome = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, submitted::add, TIMEOUT));

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        Outcome.Confirmed confirmed = (Outcome.Confirmed) outcome;
        assertThat(submitted).containsExactly(VeoStandIn.OPERATION);
        assertThat(confirmed.costUsd()).isEqualByComparingTo("3.20"); // 8 s at 0.40
        var clip = confirmed.result().media().get(0);
        assertThat(clip.file()).isNotNull();
        assertThat(Files.readAllBytes(clip.file())).isEqualTo(VeoStandIn.CLIP);
        Files.deleteIfExists(clip.file());
        VEO.vendor.verify(
                1,
                postRequestedFor(urlEqualTo("/v1beta/models/" + VeoStandIn.MODEL + ":predictLongRunning"))
                        .withRequestBody(matchingJsonPath("$.instances[0].prompt", equalTo("A heron lifts off a lake")))
                        .withRequestBody(matchingJsonPath("$.parameters.aspectRatio", equalTo("9:16")))
                        .withRequestBody(matchingJsonPath("$.parameters.durationSeconds", equalTo("8")))
                        .withRequestBody(matchingJsonPath("$.parameters.resolution", equalTo("1080p")))
                        .withRequestBody(matchingJsonPath("$.parameters.negativePrompt", equalTo("text overlays")))
                        .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.notContaining("seed")));
    }

    @Test
    void firstAndLastFramesGoInlineAsBase64() {
        VEO.serveImages();
        VEO.onSubmit(json(200, VeoStandIn.accepted()));
        VEO.onOperation(json(200, VEO.done()));
        VEO.serveClip();
        VideoParams frames = new VideoParams(
                4,
                "720p",
                "16:9",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of(VEO.vendor.baseUrl() + "/img/first.png"),
                Optional.of(VEO.vendor.baseUrl() + "/img/last.png"),
                false);

        Outcome outcome = VEO.adapter().generate(VeoStandIn.call(frames, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        String png = Base64.getEncoder().encodeToString(VeoStandIn.PNG);
        VEO.vendor.verify(
                1,
                postRequestedFor(urlEqualTo("/v1beta/models/" + VeoStandIn.MODEL + ":predictLongRunning"))
                        .withRequestBody(matchingJsonPath("$.instances[0].image.bytesBase64Encoded", equalTo(png)))
                        .withRequestBody(matchingJsonPath("$.instances[0].image.mimeType", equalTo("image/png")))
                        .withRequestBody(
                                matchingJsonPath("$.instances[0].lastFrame.bytesBase64Encoded", equalTo(png))));
        VideoStandIn.discard(outcome);
    }

    static Stream<AnswerRow> rows() {
        return Stream.of(
                row(400, "INVALID_ARGUMENT", Outcome.Rejected.class, RejectionKind.USER_ERROR, "invalid_request"),
                row(400, "FAILED_PRECONDITION", Outcome.Rejected.class, RejectionKind.CONFIG, "failed_precondition"),
                row(401, "UNAUTHENTICATED", Outcome.Rejected.class, RejectionKind.CONFIG, "invalid_credentials"),
                row(403, "PERMISSION_DENIED", Outcome.Rejected.class, RejectionKind.CONFIG, "invalid_credentials"),
                row(404, "NOT_FOUND", Outcome.Rejected.class, RejectionKind.CONFIG, "not_found"),
                row(429, "RESOURCE_EXHAUSTED", Outcome.Unavailable.class, null, "rate_limited"),
                row(500, "INTERNAL", Outcome.Unconfirmed.class, null, "server_error"),
                row(503, "UNAVAILABLE", Outcome.Unavailable.class, null, "provider_unavailable"),
                row(504, "DEADLINE_EXCEEDED", Outcome.Unconfirmed.class, null, "server_error"));
    }

    private static AnswerRow row(
            int status, String name, Class<? extends Outcome> outcome, RejectionKind kind, String code) {
        return new AnswerRow(status + " " + name, status, VeoStandIn.error(status, name, "m"), outcome, kind, code);
    }

    @ParameterizedTest
    @MethodSource("rows")
    void everyErrorRowMapsToItsClass(AnswerRow row) {
        VEO.onSubmit(json(row.status(), row.body()));

        Outcome outcome = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOf(row.outcome());
        assertThat(outcome.errorCode()).isEqualTo(row.code());
        if (outcome instanceof Outcome.Rejected rejected) {
            assertThat(rejected.kind()).isEqualTo(row.kind());
        }
    }

    @Test
    void aRetryAfterOnA429IsKeptAndNoRetryAfterIsNone() {
        VEO.onSubmit(
                json(429, VeoStandIn.error(429, "RESOURCE_EXHAUSTED", "quota")).withHeader("Retry-After", "30"));
        Outcome with = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));
        VEO.onSubmit(json(429, VeoStandIn.error(429, "RESOURCE_EXHAUSTED", "quota")));
        Outcome without = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(with)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofSeconds(30)));
        assertThat(without)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).isEmpty());
    }

    @Test
    void aWrongKeyNeverReachesTheMessage() {
        VEO.denyWrongKeys();
        Outcome outcome = new VeoAdapter(
                        VEO.settings(),
                        VEO.client,
                        VeoStandIn.environmentWith(VeoStandIn.KEY_ENV, "wrong-key-5150"),
                        VeoStandIn.REDACTOR,
                        java.time.InstantSource.system())
                .generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.message()).doesNotContain("wrong-key-5150");
        });
    }

    @Test
    void safetyFilteringIsAPolicyRejectionAndAFailedOperationIsClassifiedByItsCode() {
        VEO.onSubmit(json(200, VeoStandIn.accepted()));
        VEO.onOperation(json(200, VeoStandIn.filtered()));
        Outcome filtered = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));
        VEO.onOperation(json(200, VeoStandIn.failed(3)));
        Outcome invalid = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));
        VEO.onOperation(json(200, VeoStandIn.failed(13)));
        Outcome internal = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(filtered)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.POLICY));
        assertThat(invalid)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR));
        assertThat(internal).isInstanceOf(Outcome.Unavailable.class);
        assertThat(internal.errorCode()).isEqualTo("operation_failed");
    }

    @Test
    void aLostSubmitAnswerCannotBeFoundAndParks() {
        VEO.onSubmit(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        Outcome lost = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));
        ReconcileAnswer answer =
                VEO.adapter().reconcile(new AttemptRef("veo", "ref-1", Optional.empty(), null, Instant.now()));

        assertThat(lost)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.message()).contains("cannot be looked up"));
        assertThat(answer).isInstanceOf(ReconcileAnswer.Unsupported.class);
    }

    @Test
    void anOperationStillRunningAtTheTimeoutIsUnconfirmedAndReconcileCollectsItByName() throws Exception {
        VEO.onSubmit(json(200, VeoStandIn.accepted()));
        VEO.onOperation(json(200, VeoStandIn.running()));

        Outcome outcome =
                VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, Duration.ofMillis(600)));
        VEO.onOperation(json(200, VEO.done()));
        VEO.serveClip();
        ReconcileAnswer later = VEO.adapter()
                .reconcile(new AttemptRef("veo", "ref-2", Optional.of(VeoStandIn.OPERATION), null, Instant.now()));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("poll_timeout");
            assertThat(u.requestId()).isEqualTo(VeoStandIn.OPERATION);
        });
        assertThat(later).isInstanceOf(ReconcileAnswer.Delivered.class);
        Files.deleteIfExists(((ReconcileAnswer.Delivered) later)
                .outcome()
                .result()
                .media()
                .get(0)
                .file());
    }

    @Test
    void aKeyGoogleQuotesBackNeverReachesTheOutcome() {
        VEO.onSubmit(
                json(400, VeoStandIn.error(400, "INVALID_ARGUMENT", "API key " + VeoStandIn.KEY + " cannot do that")));

        Outcome outcome = VEO.adapter().generate(VeoStandIn.call(EIGHT_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class,
                        r -> assertThat(r.message()).contains("cannot do that").doesNotContain(VeoStandIn.KEY));
    }

    @Test
    void healthListsTheModelsWithTheKey() {
        VEO.denyWrongKeys();
        VEO.vendor.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/v1beta/models?pageSize=1"))
                .atPriority(1)
                .withHeader(VeoAdapter.KEY_HEADER, equalTo(VeoStandIn.KEY))
                .willReturn(json(200, "{\"models\":[]}")));

        assertThat(VEO.adapter().health().healthy()).isTrue();
    }

    @Test
    void veoOffersNoCancel() {
        CancelAnswer answer = VEO.adapter()
                .cancel(new AttemptRef("veo", "ref-3", Optional.of(VeoStandIn.OPERATION), null, Instant.now()));

        assertThat(answer).isInstanceOf(CancelAnswer.Unsupported.class);
        assertThat(VEO.vendor.getAllServeEvents()).isEmpty();
    }
}
