package io.idem.providers.kling;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/** The Kling adapter against a stand-in written from Kling's API reference. */
class KlingAdapterTest {
    @RegisterExtension
    static final KlingStandIn KLING = new KlingStandIn();

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final VideoParams FIVE_SECONDS = new VideoParams(
            5,
            "720p",
            "9:16",
            Optional.empty(),
            Optional.of(42L),
            Optional.of("blur"),
            Optional.empty(),
            Optional.empty(),
            false);

    @Test
    void aClipIsSubmittedUnderOurReferencePolledAndStreamedToDiskPricedPerSecond() throws Exception {
        String reference = KlingStandIn.reference();
        KLING.onSubmit("text2video", json(200, KlingStandIn.submitted("t-100", reference)));
        KLING.vendor.stubFor(
                com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/v1/videos/text2video/t-100"))
                        .atPriority(1)
                        .inScenario("render")
                        .whenScenarioStateIs(Scenario.STARTED)
                        .andMatching(r -> com.github.tomakehurst.wiremock.matching.MatchResult.of(
                                KlingStandIn.validToken(r.getHeader("Authorization"))))
                        .willReturn(json(200, KlingStandIn.task("t-100", "processing")))
                        .willSetStateTo("done"));
        KLING.vendor.stubFor(
                com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/v1/videos/text2video/t-100"))
                        .atPriority(1)
                        .inScenario("render")
                        .whenScenarioStateIs("done")
                        .willReturn(json(200, KLING.succeeded("t-100", "5.1"))));
        KLING.serveClip();
        List<String> submitted = new ArrayList<>();

        Outcome outcome = KLING.adapter().generate(KlingStandIn.call(reference, FIVE_SECONDS, submitted::add, TIMEOUT));

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        Outcome.Confirmed confirmed = (Outcome.Confirmed) outcome;
        assertThat(submitted).containsExactly("text2video/t-100");
        assertThat(confirmed.requestId()).isEqualTo("text2video/t-100");
        assertThat(confirmed.costUsd()).isEqualByComparingTo("0.357"); // 5.1 s at 0.07
        var clip = confirmed.result().media().get(0);
        assertThat(clip.mimeType()).isEqualTo("video/mp4");
        assertThat(clip.file()).isNotNull();
        assertThat(Files.readAllBytes(clip.file())).isEqualTo(KlingStandIn.CLIP);
        Files.deleteIfExists(clip.file());
        KLING.vendor.verify(
                1,
                postRequestedFor(urlEqualTo("/v1/videos/text2video"))
                        .withRequestBody(matchingJsonPath("$.external_task_id", equalTo(reference)))
                        .withRequestBody(matchingJsonPath("$.model_name", equalTo(KlingVendor.DEFAULT_MODEL)))
                        .withRequestBody(matchingJsonPath("$.duration", equalTo("5")))
                        .withRequestBody(matchingJsonPath("$.mode", equalTo("std")))
                        .withRequestBody(matchingJsonPath("$.aspect_ratio", equalTo("9:16")))
                        .withRequestBody(matchingJsonPath("$.negative_prompt", equalTo("blur")))
                        .withRequestBody(matchingJsonPath("$.sound", equalTo("off"))));
    }

    @Test
    void aFirstAndLastFrameGoToImageToVideoInPro() {
        String reference = KlingStandIn.reference();
        VideoParams frames = new VideoParams(
                10,
                "1080p",
                "16:9",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.of("https://img.example/first.png"),
                Optional.of("https://img.example/last.png"),
                true);
        KLING.onSubmit("image2video", json(200, KlingStandIn.submitted("t-200", reference)));
        KLING.onQuery("image2video/t-200", json(200, KLING.succeeded("t-200", "10")));
        KLING.serveClip();

        Outcome outcome = KLING.adapter().generate(KlingStandIn.call(reference, frames, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        assertThat(((Outcome.Confirmed) outcome).costUsd()).isEqualByComparingTo("0.70");
        KLING.vendor.verify(
                1,
                postRequestedFor(urlEqualTo("/v1/videos/image2video"))
                        .withRequestBody(matchingJsonPath("$.image", equalTo("https://img.example/first.png")))
                        .withRequestBody(matchingJsonPath("$.image_tail", equalTo("https://img.example/last.png")))
                        .withRequestBody(matchingJsonPath("$.mode", equalTo("pro")))
                        .withRequestBody(matchingJsonPath("$.duration", equalTo("10")))
                        .withRequestBody(matchingJsonPath("$.sound", equalTo("on")))
                        .withRequestBody(
                                com.github.tomakehurst.wiremock.client.WireMock.notContaining("aspect_ratio")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void theTokenIsHs256IssuedByTheAccessKeyAndValidForHalfAnHour() throws Exception {
        String reference = KlingStandIn.reference();
        KLING.onSubmit("text2video", json(429, "{\"code\":1302,\"message\":\"too fast\"}"));

        KLING.adapter().generate(KlingStandIn.call(reference, FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        String authorization =
                KLING.vendor.getAllServeEvents().get(0).getRequest().getHeader("Authorization");
        assertThat(KlingStandIn.validToken(authorization)).isTrue();
        JsonNode claims = new ObjectMapper()
                .readTree(Base64.getUrlDecoder().decode(authorization.split("\\.")[1]));
        assertThat(claims.get("iss").asText()).isEqualTo(KlingStandIn.ACCESS_KEY);
        assertThat(claims.get("exp").asLong() - claims.get("nbf").asLong()).isEqualTo(1805);
        assertThat(authorization).doesNotContain(KlingStandIn.SECRET_KEY);
    }

    @Test
    void aWrongSecretKeyIsRefusedByKlingAsAConfigError() {
        KLING.onSubmit("text2video", json(200, KlingStandIn.submitted("t-x", "x")));
        var wrongSecret = (java.util.function.UnaryOperator<String>) name -> KlingStandIn.SECRET_ENV.equals(name)
                ? "not-the-secret"
                : KlingStandIn.keys().apply(name);

        Outcome outcome = KLING.adapter(wrongSecret)
                .generate(KlingStandIn.call(KlingStandIn.reference(), FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("invalid_credentials");
            assertThat(r.message()).doesNotContain("not-the-secret").doesNotContain(KlingStandIn.ACCESS_KEY);
        });
    }

    @Test
    void aMissingSecretKeySendsNothing() {
        Outcome outcome = KLING.adapter(name -> KlingStandIn.ACCESS_ENV.equals(name) ? KlingStandIn.ACCESS_KEY : null)
                .generate(KlingStandIn.call(KlingStandIn.reference(), FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains(KlingStandIn.SECRET_ENV);
        });
        assertThat(KLING.vendor.getAllServeEvents()).isEmpty();
    }

    static Stream<AnswerRow> rows() {
        return Stream.of(
                row(
                        "400 1201 invalid value",
                        400,
                        1201,
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalid_request"),
                row(
                        "400 1301 content safety",
                        400,
                        1301,
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "content_policy_violation"),
                row(
                        "400 1300 platform policy",
                        400,
                        1300,
                        Outcome.Rejected.class,
                        RejectionKind.POLICY,
                        "content_policy_violation"),
                row(
                        "401 1004 token expired",
                        401,
                        1004,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "invalid_credentials"),
                row("403 1103 no access", 403, 1103, Outcome.Rejected.class, RejectionKind.CONFIG, "permission_denied"),
                row("404 1203 unknown model", 404, 1203, Outcome.Rejected.class, RejectionKind.CONFIG, "not_found"),
                row("429 1101 arrears", 429, 1101, Outcome.Rejected.class, RejectionKind.CONFIG, "account_in_arrears"),
                row(
                        "429 1102 no resource pack",
                        429,
                        1102,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "resource_pack_exhausted"),
                row(
                        "429 1304 IP allow-list",
                        429,
                        1304,
                        Outcome.Rejected.class,
                        RejectionKind.CONFIG,
                        "ip_not_allowed"),
                row("429 1302 rate limit", 429, 1302, Outcome.Unavailable.class, null, "rate_limited"),
                row("429 1303 concurrency", 429, 1303, Outcome.Unavailable.class, null, "rate_limited"),
                row("500 5000 server error", 500, 5000, Outcome.Unconfirmed.class, null, "server_error"),
                row("503 5001 unavailable", 503, 5001, Outcome.Unavailable.class, null, "provider_unavailable"),
                row("504 5002 server timeout", 504, 5002, Outcome.Unconfirmed.class, null, "server_error"),
                row(
                        "200 with code 1200",
                        200,
                        1200,
                        Outcome.Rejected.class,
                        RejectionKind.USER_ERROR,
                        "invalid_request"),
                new AnswerRow("502 without a body", 502, "", Outcome.Unconfirmed.class, null, "server_error"),
                new AnswerRow("429 without a body", 429, "", Outcome.Unavailable.class, null, "rate_limited"));
    }

    private static AnswerRow row(
            String name, int status, int code, Class<? extends Outcome> outcome, RejectionKind kind, String ours) {
        return new AnswerRow(
                name,
                status,
                "{\"code\":" + code + ",\"message\":\"m " + code + "\",\"request_id\":\"r\"}",
                outcome,
                kind,
                ours);
    }

    @ParameterizedTest
    @MethodSource("rows")
    void everyErrorRowMapsToItsClass(AnswerRow row) {
        KLING.onSubmit("text2video", json(row.status(), row.body()));

        Outcome outcome = KLING.adapter()
                .generate(KlingStandIn.call(KlingStandIn.reference(), FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome).isInstanceOf(row.outcome());
        assertThat(outcome.errorCode()).isEqualTo(row.code());
        if (outcome instanceof Outcome.Rejected rejected) {
            assertThat(rejected.kind()).isEqualTo(row.kind());
        }
    }

    @Test
    void aRetryAfterOnA429IsKept() {
        KLING.onSubmit(
                "text2video",
                json(429, "{\"code\":1302,\"message\":\"slow down\"}").withHeader("Retry-After", "7"));

        Outcome outcome = KLING.adapter()
                .generate(KlingStandIn.call(KlingStandIn.reference(), FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofSeconds(7)));
    }

    @Test
    void aLostSubmitAnswerIsFoundByOurExternalTaskId() throws Exception {
        String reference = KlingStandIn.reference();
        KLING.onSubmit("text2video", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        Outcome lost =
                KLING.adapter().generate(KlingStandIn.call(reference, FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));
        assertThat(lost).isInstanceOf(Outcome.Unconfirmed.class);

        KLING.onQuery("text2video/" + reference, json(200, KLING.succeeded("t-300", "5")));
        KLING.serveClip();
        ReconcileAnswer answer =
                KLING.adapter().reconcile(new AttemptRef("kling", reference, Optional.empty(), null, Instant.now()));

        assertThat(answer).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().requestId()).isEqualTo("text2video/t-300");
            assertThat(d.outcome().costUsd()).isEqualByComparingTo("0.35");
        });
        Files.deleteIfExists(((ReconcileAnswer.Delivered) answer)
                .outcome()
                .result()
                .media()
                .get(0)
                .file());
    }

    @Test
    void aSubmitThatNeverArrivedIsNotBilled() {
        String reference = KlingStandIn.reference();
        KLING.onQuery("text2video/" + reference, json(404, "{\"code\":1203,\"message\":\"task not found\"}"));
        KLING.onQuery("image2video/" + reference, json(404, "{\"code\":1203,\"message\":\"task not found\"}"));

        ReconcileAnswer answer =
                KLING.adapter().reconcile(new AttemptRef("kling", reference, Optional.empty(), null, Instant.now()));

        assertThat(answer).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aClipStillRenderingAtTheTimeoutIsUnconfirmedUnderItsTaskAndReconcileWaits() {
        String reference = KlingStandIn.reference();
        KLING.onSubmit("text2video", json(200, KlingStandIn.submitted("t-400", reference)));
        KLING.onQuery("text2video/t-400", json(200, KlingStandIn.task("t-400", "processing")));

        Outcome outcome = KLING.adapter()
                .generate(KlingStandIn.call(reference, FIVE_SECONDS, AttemptListener.NONE, Duration.ofMillis(600)));
        ReconcileAnswer later = KLING.adapter()
                .reconcile(new AttemptRef("kling", reference, Optional.of("text2video/t-400"), null, Instant.now()));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("poll_timeout");
            assertThat(u.requestId()).isEqualTo("text2video/t-400");
        });
        assertThat(later).isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void aFailedTaskIsUnavailableAndReconcileSaysFailedUnbilled() {
        String reference = KlingStandIn.reference();
        KLING.onSubmit("text2video", json(200, KlingStandIn.submitted("t-500", reference)));
        KLING.onQuery("text2video/t-500", json(200, KlingStandIn.task("t-500", "failed")));

        Outcome outcome =
                KLING.adapter().generate(KlingStandIn.call(reference, FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));
        ReconcileAnswer later = KLING.adapter()
                .reconcile(new AttemptRef("kling", reference, Optional.of("text2video/t-500"), null, Instant.now()));

        assertThat(outcome).isInstanceOf(Outcome.Unavailable.class);
        assertThat(outcome.errorCode()).isEqualTo("task_failed");
        assertThat(later)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Failed.class,
                        f -> assertThat(f.billed()).isFalse());
    }

    @Test
    void keysAndTokensKlingQuotesBackNeverReachTheOutcome() {
        String reference = KlingStandIn.reference();
        KLING.onSubmit(
                "text2video",
                json(
                        400,
                        "{\"code\":1201,\"message\":\"bad value; keys were " + KlingStandIn.ACCESS_KEY + " / "
                                + KlingStandIn.SECRET_KEY + ", header Bearer eyJhbGciOiJIUzI1NiJ9.e30.x\"}"));

        Outcome outcome =
                KLING.adapter().generate(KlingStandIn.call(reference, FIVE_SECONDS, AttemptListener.NONE, TIMEOUT));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class,
                        r -> assertThat(r.message())
                                .contains("bad value")
                                .doesNotContain(KlingStandIn.ACCESS_KEY)
                                .doesNotContain(KlingStandIn.SECRET_KEY)
                                .doesNotContain("eyJhbGciOiJIUzI1NiJ9"));
    }

    @Test
    void healthListsOneTaskWithASignedToken() {
        KLING.onQuery("text2video?pageNum=1&pageSize=1", json(200, "{\"code\":0,\"message\":\"SUCCEED\",\"data\":[]}"));

        assertThat(KLING.adapter().health().healthy()).isTrue();
        assertThat(KLING.adapter(name -> null).health().healthy()).isFalse();
    }

    @Test
    void klingOffersNoCancel() {
        CancelAnswer answer = KLING.adapter()
                .cancel(new AttemptRef(
                        "kling", KlingStandIn.reference(), Optional.of("text2video/t-1"), null, Instant.now()));

        assertThat(answer).isInstanceOf(CancelAnswer.Unsupported.class);
        assertThat(KLING.vendor.getAllServeEvents()).isEmpty();
    }
}
