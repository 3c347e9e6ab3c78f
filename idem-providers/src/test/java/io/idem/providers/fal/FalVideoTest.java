package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.domain.VideoParams;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
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
 * A video endpoint on fal's queue (vendor-apis §3, video-and-sdk §3.1): submit, poll, a result
 * whose {@code video.url} is streamed to disk and priced by {@code x-fal-billable-units}, every
 * submit error row, cancel, and a clip found again by id after the answer was lost.
 */
class FalVideoTest {
    static final String ENDPOINT = "fal-ai/wan/v2.2/text-to-video";
    static final String APP = "/fal-ai/wan";
    static final String ID = "5a1c0de0-0000-4000-8000-00000000f41e";
    static final String REQUESTS = APP + "/requests/" + ID;

    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    private static FalAdapter adapter() {
        return new FalAdapter(
                VideoStandIn.perSecond("fal", URI.create(wm.baseUrl()), FalStubs.KEY_VARIABLE, ENDPOINT),
                FalStubs.CLIENT,
                environmentWith(FalStubs.KEY_VARIABLE, FalStubs.SECRET),
                VendorStandIn.REDACTOR,
                InstantSource.system(),
                FalStubs.FAST);
    }

    private static GenerationCall clip(VideoParams params, SeenIds ids) {
        return new CallBuilder("fal", ENDPOINT)
                .video(params)
                .timeout(Duration.ofSeconds(5))
                .listener(ids)
                .callback(URI.create("https://idem.example/v1/hooks/fal?attempt=a1&sig=abc"))
                .build();
    }

    private static void accepted() {
        String base = wm.baseUrl() + REQUESTS;
        wm.stubFor(post(urlPathEqualTo("/" + ENDPOINT)).willReturn(json(200, """
                        {"request_id":"%s","response_url":"%s","status_url":"%s/status","cancel_url":"%s/cancel","queue_position":0}\
                        """.formatted(ID, base, base, base))));
    }

    private static void completed(String resultHeaderUnits) {
        wm.stubFor(get(urlPathEqualTo(REQUESTS + "/status"))
                .willReturn(json(200, """
                        {"status":"COMPLETED","logs":null,"response_url":"%s","error":null,"error_type":null}\
                        """.formatted(wm.baseUrl() + REQUESTS))));
        var result = aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                        {"video":{"url":"%s/files/clip.mp4","content_type":"video/mp4","file_size":40032},"seed":42}\
                        """.formatted(wm.baseUrl()));
        if (resultHeaderUnits != null) {
            result = result.withHeader(FalVideoDelivery.BILLABLE_UNITS, resultHeaderUnits);
        }
        wm.stubFor(get(urlPathEqualTo(REQUESTS)).willReturn(result));
        wm.stubFor(get(urlPathEqualTo("/files/clip.mp4")).willReturn(VideoStandIn.mp4()));
    }

    @Test
    void aClipIsStreamedToDiskAndPricedByFalsBillableUnits() {
        accepted();
        completed("5");
        SeenIds ids = new SeenIds();

        Outcome outcome = adapter().generate(clip(VideoStandIn.CLIP, ids));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo(ID);
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.mimeType()).isEqualTo("video/mp4");
                assertThat(VideoStandIn.spooledBytes(m)).isEqualTo(VideoStandIn.MP4);
            });
            // fal billed 5 units (seconds), not the 6 asked for
            assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.50"));
        });
        assertThat(ids.seen).containsExactly(ID);
        wm.verify(postRequestedFor(urlPathEqualTo("/" + ENDPOINT))
                .withHeader("Authorization", equalTo("Key " + FalStubs.SECRET))
                .withQueryParam("fal_webhook", equalTo("https://idem.example/v1/hooks/fal?attempt=a1&sig=abc"))
                .withRequestBody(equalToJson("""
                        {"prompt":"A lighthouse over a cloud ocean","duration":6,"aspect_ratio":"9:16",
                         "resolution":"1080p","fps":24,"seed":42,"negative_prompt":"blurry",
                         "image_url":"https://img.example/first.png","end_image_url":"https://img.example/last.png",
                         "generate_audio":true}""")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void withoutBillableUnitsTheAskedSecondsArePricedPerSecond() {
        accepted();
        completed(null);

        Outcome outcome = adapter().generate(clip(VideoParams.DEFAULTS, new SeenIds()));

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Confirmed.class,
                        c -> assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.40")));
        wm.verify(postRequestedFor(urlPathEqualTo("/" + ENDPOINT)).withRequestBody(equalToJson("""
                        {"prompt":"A lighthouse over a cloud ocean","duration":4,"aspect_ratio":"16:9","resolution":"720p"}""")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void everySubmitErrorRowMapsAsForImages() {
        record Row(int status, String body, Class<? extends Outcome> outcome) {}
        Row[] rows = {
            new Row(401, "{\"detail\":\"Invalid key\"}", Outcome.Rejected.class),
            new Row(403, "{\"detail\":\"User is locked\"}", Outcome.Rejected.class),
            new Row(404, "{\"detail\":\"Application not found\"}", Outcome.Rejected.class),
            new Row(422, FalStubs.modelError("content_policy_violation", "flagged"), Outcome.Rejected.class),
            new Row(422, FalStubs.modelError("value_error", "duration must be 5 or 10"), Outcome.Rejected.class),
            new Row(500, FalStubs.infraError("Internal error", "internal_error"), Outcome.Unavailable.class),
            new Row(
                    503,
                    FalStubs.infraError("Runner unavailable", "runner_scheduling_failure"),
                    Outcome.Unavailable.class)
        };
        for (Row row : rows) {
            wm.resetAll();
            wm.stubFor(post(urlPathEqualTo("/" + ENDPOINT)).willReturn(json(row.status(), row.body())));
            Outcome outcome = adapter().generate(clip(VideoStandIn.CLIP, new SeenIds()));
            assertThat(outcome).as("HTTP %d %s", row.status(), row.body()).isInstanceOf(row.outcome());
        }
        wm.resetAll();
        wm.stubFor(post(urlPathEqualTo("/" + ENDPOINT))
                .willReturn(json(429, FalStubs.infraError("Too many requests", "rate_limited"))
                        .withHeader("Retry-After", "7")));
        assertThat(adapter().generate(clip(VideoStandIn.CLIP, new SeenIds())))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofSeconds(7)));
        wm.resetAll();
        wm.stubFor(post(urlPathEqualTo("/" + ENDPOINT))
                .willReturn(json(422, FalStubs.modelError("content_policy_violation", "flagged"))));
        assertThat(adapter().generate(clip(VideoStandIn.CLIP, new SeenIds())))
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.POLICY));
    }

    @Test
    void aQueuedClipIsCanceledThroughTheQueuesCancelEndpoint() {
        wm.stubFor(get(urlPathEqualTo(REQUESTS + "/status"))
                .willReturn(json(200, "{\"status\":\"IN_QUEUE\",\"queue_position\":2}")));
        wm.stubFor(put(urlPathEqualTo(REQUESTS + "/cancel"))
                .willReturn(json(202, "{\"status\":\"CANCELLATION_REQUESTED\"}")));

        CancelAnswer answer = adapter().cancel(ref(Optional.of(ID)));

        assertThat(answer).isInstanceOf(CancelAnswer.Canceled.class);
        wm.verify(1, putRequestedFor(urlPathEqualTo(REQUESTS + "/cancel")));
    }

    @Test
    void aClipWhoseAnswerWasLostIsCollectedByItsRequestId() {
        completed("4");

        ReconcileAnswer answer = adapter().reconcile(ref(Optional.of(ID)));

        assertThat(answer).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().costUsd()).isEqualByComparingTo(new BigDecimal("0.40"));
            assertThat(VideoStandIn.spooledBytes(d.outcome().result().media().getFirst()))
                    .isEqualTo(VideoStandIn.MP4);
        });
        VideoStandIn.discard(answer);
    }

    @Test
    void aLostVideoSubmitIsFoundInFalsHistoryByItsInputAndItsClipSpooled() {
        GenerationCall call = new CallBuilder("fal", ENDPOINT)
                .video(VideoStandIn.CLIP)
                .timeout(Duration.ofSeconds(1))
                .build();
        wm.stubFor(
                post(urlPathEqualTo("/" + ENDPOINT)).willReturn(json(200, "{}").withFixedDelay(3_000)));
        FalAdapter adapter = adapter();
        Outcome lost = adapter.generate(call);
        String sent = Instant.now().toString();
        wm.stubFor(get(urlPathEqualTo("/v1/models/requests/by-endpoint")).willReturn(json(200, """
                        {"items":[{"request_id":"%s","endpoint_id":"%s","sent_at":"%s","started_at":"%s","ended_at":"%s",
                          "status_code":200,"duration":80.0,"json_input":%s,
                          "json_output":{"video":{"url":"%s/files/clip.mp4"}}}],"next_cursor":null,"has_more":false}\
                        """.formatted(
                        ID, ENDPOINT, sent, sent, sent, FalVideoInput.of(call), wm.baseUrl()))));
        wm.stubFor(get(urlPathEqualTo("/files/clip.mp4")).willReturn(VideoStandIn.mp4()));

        ReconcileAnswer answer =
                adapter.reconcile(new AttemptRef("fal", call.reference(), Optional.empty(), ENDPOINT, Instant.now()));

        assertThat(lost).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(answer).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().requestId()).isEqualTo(ID);
            // the listed input asked for 6 s
            assertThat(d.outcome().costUsd()).isEqualByComparingTo(new BigDecimal("0.60"));
            assertThat(VideoStandIn.spooledBytes(d.outcome().result().media().getFirst()))
                    .isEqualTo(VideoStandIn.MP4);
        });
        VideoStandIn.discard(answer);
    }

    private static AttemptRef ref(Optional<String> requestId) {
        return new AttemptRef("fal", "a7e0c7a4-5b0f-4d7e-9d67-3c4f1e2a9b10", requestId, ENDPOINT, Instant.now());
    }
}
