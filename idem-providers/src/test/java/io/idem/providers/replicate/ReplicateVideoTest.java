package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.idem.providers.http.VendorStandIn.environmentWith;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.CallBuilder;
import io.idem.providers.http.SeenIds;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorStandIn;
import io.idem.providers.http.VideoStandIn;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A video model's predictions (vendor-apis §4, video-and-sdk §3.1): input mapping, {@code
 * Cancel-After} from the job's deadline, a clip streamed to disk and priced per second, polling
 * that honours a throttled lookup's {@code Retry-After}, every create error row, cancel, and a lost
 * create found again in the prediction list by its input.
 */
class ReplicateVideoTest {
    static final String MODEL = "kwaivgi/kling-v2.1";
    static final String ID = "vq3zsc0c8drme0cs4xk9fv1nmr";
    static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    private static ReplicateAdapter adapter(InstantSource clock) {
        return new ReplicateAdapter(
                VideoStandIn.perSecond("replicate", URI.create(wm.baseUrl()), ReplicateStubs.KEY_VARIABLE, MODEL),
                ReplicateStubs.CLIENT,
                environmentWith(ReplicateStubs.KEY_VARIABLE, ReplicateStubs.SECRET),
                VendorStandIn.REDACTOR,
                clock,
                ReplicateStubs.FAST);
    }

    private static CallBuilder clip() {
        return new CallBuilder("replicate", MODEL).video(VideoStandIn.CLIP).timeout(Duration.ofSeconds(5));
    }

    /** A prediction of the clip as Replicate shows it, in {@code status}. */
    private static String prediction(GenerationCall call, String status) {
        ObjectNode node = VendorJson.MAPPER.createObjectNode();
        node.put("id", ID).put("model", MODEL).put("version", "hidden");
        node.set("input", ReplicateVideo.input(call));
        node.put("status", status).put("source", "api").put("data_removed", false);
        node.put("created_at", T0.plusSeconds(1).toString());
        node.put(
                "started_at",
                status.equals("starting") ? null : T0.plusSeconds(2).toString());
        node.putObject("urls").put("get", wm.baseUrl() + "/v1/predictions/" + ID);
        if (status.equals("succeeded")) {
            node.put("output", wm.baseUrl() + "/files/clip.mp4");
            node.putObject("metrics").put("predict_time", 84.2).put("total_time", 90.1);
        }
        return node.toString();
    }

    private static void runs(GenerationCall call, String... polls) {
        wm.stubFor(post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .willReturn(json(201, prediction(call, "starting"))));
        for (int i = 0; i < polls.length; i++) {
            var stub = get(urlPathEqualTo("/v1/predictions/" + ID))
                    .inScenario("poll")
                    .whenScenarioStateIs(i == 0 ? STARTED : "poll-" + i);
            if (i < polls.length - 1) {
                stub = stub.willSetStateTo("poll-" + (i + 1));
            }
            wm.stubFor(stub.willReturn(
                    polls[i].equals("429")
                            ? json(429, ReplicateStubs.problem(429, "Too Many Requests", "slow down"))
                                    .withHeader("Retry-After", "1")
                            : json(200, prediction(call, polls[i]))));
        }
        wm.stubFor(get(urlPathEqualTo("/files/clip.mp4")).willReturn(VideoStandIn.mp4()));
    }

    @Test
    void aClipIsStreamedToDiskPricedPerSecondWithCancelAfterAtTheJobsDeadline() {
        SeenIds ids = new SeenIds();
        GenerationCall call = clip().listener(ids)
                .deadline(T0.plus(Duration.ofMinutes(20)))
                .callback(URI.create("https://idem.example/v1/hooks/replicate?attempt=a1&sig=abc"))
                .build();
        runs(call, "processing", "succeeded");

        Outcome outcome = adapter(InstantSource.fixed(T0)).generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo(ID);
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.mimeType()).isEqualTo("video/mp4");
                assertThat(VideoStandIn.spooledBytes(m)).isEqualTo(VideoStandIn.MP4);
            });
            assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.60"));
        });
        assertThat(ids.seen).containsExactly(ID);
        wm.verify(postRequestedFor(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .withHeader("Authorization", equalTo("Bearer " + ReplicateStubs.SECRET))
                // twenty minutes left of the job, not the call's five seconds
                .withHeader("Cancel-After", equalTo("1200s"))
                .withRequestBody(equalToJson("""
                        {"input":{"prompt":"A lighthouse over a cloud ocean","duration":6,"aspect_ratio":"9:16",
                          "resolution":"1080p","fps":24,"seed":42,"negative_prompt":"blurry",
                          "start_image":"https://img.example/first.png","end_image":"https://img.example/last.png",
                          "generate_audio":true},
                         "webhook":"https://idem.example/v1/hooks/replicate?attempt=a1&sig=abc",
                         "webhook_events_filter":["completed"]}""")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void aClipFetchedBeforeAnotherOutputFailsIsNotLeftOnDisk() {
        byte[] clip = VideoStandIn.uniqueMp4();
        GenerationCall call = clip().build();
        ObjectNode done =
                (ObjectNode) VendorJson.parse(prediction(call, "succeeded").getBytes(StandardCharsets.UTF_8))
                        .orElseThrow();
        done.putArray("output").add(wm.baseUrl() + "/files/own.mp4").add(wm.baseUrl() + "/files/expired.mp4");
        wm.stubFor(post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .willReturn(json(201, prediction(call, "starting"))));
        wm.stubFor(get(urlPathEqualTo("/v1/predictions/" + ID)).willReturn(json(200, done.toString())));
        wm.stubFor(get(urlPathEqualTo("/files/own.mp4")).willReturn(VideoStandIn.mp4(clip)));
        wm.stubFor(get(urlPathEqualTo("/files/expired.mp4")).willReturn(json(404, "{}")));

        Outcome outcome = adapter(InstantSource.fixed(T0)).generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("result_download_failed"));
        wm.verify(getRequestedFor(urlPathEqualTo("/files/own.mp4")));
        assertThat(VideoStandIn.spoolFilesHolding(clip)).isEmpty();
    }

    @Test
    void withoutAJobDeadlineCancelAfterIsTheCallsTimeout() {
        GenerationCall call = clip().build();
        runs(call, "succeeded");

        Outcome outcome = adapter(InstantSource.fixed(T0)).generate(call);

        wm.verify(postRequestedFor(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .withHeader("Cancel-After", equalTo("5s")));
        VideoStandIn.discard(outcome);
    }

    @Test
    void aThrottledLookupWaitsTheRetryAfterReplicateAsked() {
        GenerationCall call = clip().build();
        runs(call, "429", "succeeded");

        long started = System.nanoTime();
        Outcome outcome = adapter(InstantSource.system()).generate(call);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        // the pace alone would have polled again within 40 ms
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        wm.verify(2, getRequestedFor(urlPathEqualTo("/v1/predictions/" + ID)));
        VideoStandIn.discard(outcome);
    }

    @Test
    void everyCreateErrorRowMaps() {
        record Row(int status, Class<? extends Outcome> outcome) {}
        Row[] rows = {
            new Row(401, Outcome.Rejected.class),
            new Row(402, Outcome.Rejected.class),
            new Row(404, Outcome.Rejected.class),
            new Row(422, Outcome.Rejected.class),
            new Row(500, Outcome.Unconfirmed.class),
            new Row(503, Outcome.Unconfirmed.class)
        };
        for (Row row : rows) {
            wm.resetAll();
            wm.stubFor(post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                    .willReturn(json(row.status(), ReplicateStubs.problem(row.status(), "Error", "refused"))));
            assertThat(adapter(InstantSource.system()).generate(clip().build()))
                    .as("HTTP %d", row.status())
                    .isInstanceOf(row.outcome());
        }
        wm.resetAll();
        wm.stubFor(post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .willReturn(json(429, ReplicateStubs.problem(429, "Too Many Requests", "throttled"))
                        .withHeader("Retry-After", "9")));
        assertThat(adapter(InstantSource.system()).generate(clip().build()))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).contains(Duration.ofSeconds(9)));
    }

    @Test
    void aClipNotYetStartedIsCanceledFree() {
        GenerationCall call = clip().build();
        ObjectNode canceled =
                (ObjectNode) VendorJson.parse(prediction(call, "canceled").getBytes(StandardCharsets.UTF_8))
                        .orElseThrow();
        canceled.putNull("started_at");
        wm.stubFor(
                post(urlPathEqualTo("/v1/predictions/" + ID + "/cancel")).willReturn(json(200, canceled.toString())));

        CancelAnswer answer = adapter(InstantSource.system())
                .cancel(new AttemptRef("replicate", call.reference(), Optional.of(ID), MODEL, T0));

        assertThat(answer).isInstanceOf(CancelAnswer.Canceled.class);
    }

    @Test
    void aLostCreateIsFoundInThePredictionListByItsInput() {
        GenerationCall call = clip().timeout(Duration.ofSeconds(1)).build();
        wm.stubFor(post(urlPathEqualTo("/v1/models/" + MODEL + "/predictions"))
                .willReturn(json(201, prediction(call, "starting")).withFixedDelay(2_500)));
        wm.stubFor(get(urlPathEqualTo("/v1/predictions"))
                .willReturn(json(200, ReplicateStubs.page(prediction(call, "succeeded")))));
        wm.stubFor(get(urlPathEqualTo("/v1/predictions/" + ID)).willReturn(json(200, prediction(call, "succeeded"))));
        wm.stubFor(get(urlPathEqualTo("/files/clip.mp4")).willReturn(VideoStandIn.mp4()));
        ReplicateAdapter adapter = adapter(InstantSource.system());

        Outcome lost = adapter.generate(call);
        ReconcileAnswer found =
                adapter.reconcile(new AttemptRef("replicate", call.reference(), Optional.empty(), MODEL, T0));

        assertThat(lost).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(found).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().requestId()).isEqualTo(ID);
            assertThat(d.outcome().costUsd()).isEqualByComparingTo(new BigDecimal("0.60"));
        });
        VideoStandIn.discard(found);
    }
}
