package io.idem.providers.runware;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.runware.RunwareFixture.KEY_ENV;
import static io.idem.providers.runware.RunwareFixture.SECRET;
import static io.idem.providers.runware.RunwareFixture.lookup;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.CallBuilder;
import io.idem.providers.http.SeenIds;
import io.idem.providers.http.VendorStandIn;
import io.idem.providers.http.VideoStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code videoInference} under our own task UUID (runware.ai/docs: video inference, task polling,
 * webhooks; video-and-sdk §3.1): the task as sent, async polling to a clip streamed to disk and
 * priced by Runware's stated cost (else per second), every submit error row, and a lost submit
 * found by {@code getResponse} about the UUID we chose.
 */
class RunwareVideoTest {
    static final String MODEL = "klingai:5@3";
    /** The fixture's pace, with room for a clip. */
    static final RunwareTuning TUNING = new RunwareTuning(
            RunwareFixture.TUNING.firstPoll(),
            RunwareFixture.TUNING.maxPoll(),
            RunwareFixture.TUNING.lookupTimeout(),
            RunwareFixture.TUNING.promptRefusal(),
            RunwareFixture.TUNING.notFoundTrustedFor(),
            RunwareFixture.TUNING.downloadTimeout(),
            1024 * 1024);

    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    private static RunwareAdapter adapter() {
        return new RunwareAdapter(
                VideoStandIn.perSecond("runware", fixture.baseUrl(), KEY_ENV, MODEL),
                fixture.client,
                RunwareFixture.withKey(),
                VendorStandIn.REDACTOR,
                TUNING,
                InstantSource.system());
    }

    private static GenerationCall clip(VideoParams params, SeenIds ids) {
        return new CallBuilder("runware", MODEL)
                .video(params)
                .timeout(Duration.ofSeconds(5))
                .listener(ids)
                .callback(URI.create("https://idem.example/v1/hooks/runware?attempt=a1&sig=abc"))
                .build();
    }

    private static MappingBuilder submit(String task) {
        return post(urlEqualTo("/v1"))
                .withRequestBody(matchingJsonPath("$[0].taskType", equalTo("videoInference")))
                .withRequestBody(matchingJsonPath("$[0].taskUUID", equalTo(task)));
    }

    private static String item(String task, String status, String more) {
        return "{\"data\": [{\"taskType\": \"videoInference\", \"taskUUID\": \"" + task + "\", \"status\": \"" + status
                + "\"" + more + "}]}";
    }

    private static String done(String task, String cost) {
        return item(
                task,
                "success",
                ", \"videoUUID\": \"0b3a6f2e-1c1d-4c55-9f0e-6a1c2c6f9d11\", \"videoURL\": \"" + fixture.vendor.baseUrl()
                        + "/videos/clip.mp4\"" + (cost == null ? "" : ", \"cost\": " + cost));
    }

    private static void servesTheClip() {
        fixture.vendor.stubFor(get(urlPathEqualTo("/videos/clip.mp4")).willReturn(VideoStandIn.mp4()));
    }

    @Test
    void aClipIsPolledToItsEndStreamedToDiskAndPricedByRunware() {
        SeenIds ids = new SeenIds();
        GenerationCall call = clip(VideoStandIn.CLIP, ids);
        String task = call.reference();
        fixture.vendor.stubFor(submit(task)
                .willReturn(json(
                        200, "{\"data\": [{\"taskType\": \"videoInference\"," + " \"taskUUID\": \"" + task + "\"}]}")));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("poll")
                .whenScenarioStateIs(Scenario.STARTED)
                .willSetStateTo("done")
                .willReturn(json(200, item(task, "processing", ""))));
        fixture.vendor.stubFor(lookup(task)
                .inScenario("poll")
                .whenScenarioStateIs("done")
                .willReturn(json(200, done(task, "0.3528"))));
        servesTheClip();

        Outcome outcome = adapter().generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo(task);
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.mimeType()).isEqualTo("video/mp4");
                assertThat(VideoStandIn.spooledBytes(m)).isEqualTo(VideoStandIn.MP4);
            });
            assertThat(c.costUsd()).isEqualByComparingTo("0.3528");
        });
        assertThat(ids.seen).containsExactly(task);
        fixture.vendor.verify(postRequestedFor(urlEqualTo("/v1"))
                .withHeader("Authorization", equalTo("Bearer " + SECRET))
                .withRequestBody(equalToJson("""
                        [{"taskType":"videoInference","taskUUID":"%s","positivePrompt":"A lighthouse over a cloud ocean",
                          "model":"%s","duration":6,"width":1080,"height":1920,"numberResults":1,
                          "outputType":"URL","outputFormat":"MP4","deliveryMethod":"async","includeCost":true,
                          "fps":24,"seed":42,"negativePrompt":"blurry",
                          "frameImages":[{"inputImage":"https://img.example/first.png","frame":"first"},
                                         {"inputImage":"https://img.example/last.png","frame":"last"}],
                          "webhookURL":"https://idem.example/v1/hooks/runware?attempt=a1&sig=abc"}]""".formatted(task, MODEL))));
        VideoStandIn.discard(outcome);
    }

    @Test
    void withoutRunwaresCostTheClipIsPricedPerSecondAsked() {
        GenerationCall call = clip(VideoParams.DEFAULTS, new SeenIds());
        String task = call.reference();
        fixture.vendor.stubFor(submit(task).willReturn(json(200, done(task, null))));
        servesTheClip();

        Outcome outcome = adapter().generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Confirmed.class,
                        c -> assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.40")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void aClipFetchedBeforeAnotherItemFailsIsNotLeftOnDisk() {
        byte[] clip = VideoStandIn.uniqueMp4();
        GenerationCall call = clip(VideoParams.DEFAULTS, new SeenIds());
        String task = call.reference();
        String items = "{\"data\": [" + success(task, "own.mp4") + ", " + success(task, "expired.mp4") + "]}";
        fixture.vendor.stubFor(submit(task).willReturn(json(200, items)));
        fixture.vendor.stubFor(get(urlPathEqualTo("/videos/own.mp4")).willReturn(VideoStandIn.mp4(clip)));
        fixture.vendor.stubFor(get(urlPathEqualTo("/videos/expired.mp4")).willReturn(json(404, "{}")));

        Outcome outcome = adapter().generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("result_download_failed"));
        fixture.vendor.verify(getRequestedFor(urlPathEqualTo("/videos/own.mp4")));
        assertThat(VideoStandIn.spoolFilesHolding(clip)).isEmpty();
    }

    private static String success(String task, String file) {
        return "{\"taskType\": \"videoInference\", \"taskUUID\": \"" + task + "\", \"status\": \"success\","
                + " \"videoURL\": \"" + fixture.vendor.baseUrl() + "/videos/" + file + "\"}";
    }

    @Test
    void everySubmitErrorRowMaps() {
        record Row(int status, String code, String parameter, Class<? extends Outcome> outcome) {}
        Row[] rows = {
            new Row(401, "invalidApiKey", "apiKey", Outcome.Rejected.class),
            new Row(400, "invalidDuration", "duration", Outcome.Rejected.class),
            new Row(400, "invalidFrameImages", "frameImages", Outcome.Rejected.class),
            new Row(402, "insufficientCredits", null, Outcome.Rejected.class),
            new Row(500, "internalServerError", null, Outcome.Unconfirmed.class),
            new Row(502, "badGateway", null, Outcome.Unconfirmed.class)
        };
        for (Row row : rows) {
            GenerationCall call = clip(VideoStandIn.CLIP, new SeenIds());
            fixture.vendor.resetAll();
            fixture.vendor.stubFor(
                    submit(call.reference()).willReturn(json(row.status(), error(call, row.code(), row.parameter()))));
            assertThat(adapter().generate(call))
                    .as("%d %s", row.status(), row.code())
                    .isInstanceOf(row.outcome());
        }
        GenerationCall throttled = clip(VideoStandIn.CLIP, new SeenIds());
        fixture.vendor.stubFor(submit(throttled.reference())
                .willReturn(
                        json(429, error(throttled, "rateLimitExceeded", null)).withHeader("Retry-After", "3")));
        assertThat(adapter().generate(throttled))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofSeconds(3)));
        GenerationCall refused = clip(VideoStandIn.CLIP, new SeenIds());
        fixture.vendor.stubFor(
                submit(refused.reference()).willReturn(json(400, error(refused, "contentModerationFailed", null))));
        assertThat(adapter().generate(refused))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.POLICY));
    }

    private static String error(GenerationCall call, String code, String parameter) {
        return "{\"errors\": [{\"code\": \"" + code + "\", \"message\": \"refused\""
                + (parameter == null ? "" : ", \"parameter\": \"" + parameter + "\"")
                + ", \"taskType\": \"videoInference\", \"taskUUID\": \"" + call.reference() + "\"}]}";
    }

    @Test
    void aSubmitWhoseAnswerWasLostIsFoundByTheTaskUuidWeChose() {
        GenerationCall call = new CallBuilder("runware", MODEL)
                .video(VideoParams.DEFAULTS)
                .timeout(Duration.ofMillis(300))
                .build();
        String task = call.reference();
        fixture.vendor.stubFor(
                submit(task).willReturn(json(200, item(task, "processing", "")).withFixedDelay(1_500)));
        RunwareAdapter adapter = adapter();

        Outcome lost = adapter.generate(call);
        fixture.vendor.stubFor(lookup(task).willReturn(json(200, done(task, "0.28"))));
        servesTheClip();
        ReconcileAnswer found =
                adapter.reconcile(new AttemptRef("runware", task, Optional.empty(), MODEL, Instant.now()));

        assertThat(lost).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(found).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().requestId()).isEqualTo(task);
            assertThat(d.outcome().costUsd()).isEqualByComparingTo("0.28");
            assertThat(VideoStandIn.spooledBytes(d.outcome().result().media().getFirst()))
                    .isEqualTo(VideoStandIn.MP4);
        });
        VideoStandIn.discard(found);
    }
}
