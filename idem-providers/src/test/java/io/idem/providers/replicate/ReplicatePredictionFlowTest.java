package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.replicate.ReplicateStubs.ID;
import static io.idem.providers.replicate.ReplicateStubs.MODEL;
import static io.idem.providers.replicate.ReplicateStubs.WEBP;
import static io.idem.providers.replicate.ReplicateStubs.aCall;
import static io.idem.providers.replicate.ReplicateStubs.adapter;
import static io.idem.providers.replicate.ReplicateStubs.create;
import static io.idem.providers.replicate.ReplicateStubs.getPrediction;
import static io.idem.providers.replicate.ReplicateStubs.media;
import static io.idem.providers.replicate.ReplicateStubs.prediction;
import static io.idem.providers.replicate.ReplicateStubs.webp;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.SeenIds;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Create, poll, download: how each way a prediction ends maps onto an outcome. */
class ReplicatePredictionFlowTest {
    private static final String CREATE_PATH = "/v1/models/" + MODEL + "/predictions";

    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    private static ReplicateStubs.Prediction a(String status) {
        return prediction(wm.baseUrl(), status);
    }

    private static void created(ReplicateStubs.Prediction p) {
        wm.stubFor(create().willReturn(json(201, p.json())));
    }

    private static void pollGoes(ReplicateStubs.Prediction... states) {
        for (int i = 0; i < states.length; i++) {
            String from = i == 0 ? STARTED : "poll-" + i;
            var stub = getPrediction().inScenario("prediction").whenScenarioStateIs(from);
            if (i < states.length - 1) {
                stub = stub.willSetStateTo("poll-" + (i + 1));
            }
            wm.stubFor(stub.willReturn(json(200, states[i].json())));
        }
    }

    @Test
    void aFastModelAnswersWithinPreferWaitAndItsOutputIsDownloaded() {
        created(a("succeeded"));
        wm.stubFor(media().willReturn(webp()));
        SeenIds ids = new SeenIds();
        URI callback = URI.create("https://idem.example/v1/hooks/replicate?attempt=a1&sig=abc");

        Outcome outcome =
                adapter(wm.baseUrl()).generate(aCall(MODEL, Duration.ofSeconds(5), ids, Optional.of(callback)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo(ID);
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.bytes()).isEqualTo(WEBP);
                assertThat(m.mimeType()).isEqualTo("image/webp");
            });
            assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.003"));
        });
        assertThat(ids.seen).containsExactly(ID);
        wm.verify(postRequestedFor(urlPathEqualTo(CREATE_PATH))
                .withHeader("Authorization", equalTo("Bearer " + ReplicateStubs.SECRET))
                .withHeader("Prefer", equalTo("wait=4"))
                .withHeader("Cancel-After", equalTo("5s"))
                .withRequestBody(matchingJsonPath("$.input.prompt", equalTo("a cat")))
                .withRequestBody(matchingJsonPath("$.input.width", equalTo("1024")))
                .withRequestBody(matchingJsonPath("$.webhook", equalTo(callback.toString())))
                .withRequestBody(matchingJsonPath("$.webhook_events_filter[0]", equalTo("completed"))));
    }

    @Test
    void aPredictionIsFollowedFromStartingThroughProcessingToSucceeded() {
        created(a("starting"));
        pollGoes(a("starting"), a("processing"), a("succeeded"));
        wm.stubFor(media().willReturn(webp()));
        SeenIds ids = new SeenIds();

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(MODEL, Duration.ofSeconds(5), ids, Optional.empty()));

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        assertThat(ids.seen).containsExactly(ID);
    }

    @Test
    void aSafetyFailureIsAPolicyRejection() {
        created(a("starting"));
        pollGoes(
                a("processing"),
                a("failed").error("NSFW content detected. Try running it again, or try a different prompt."));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.POLICY);
            assertThat(r.requestId()).isEqualTo(ID);
        });
    }

    @Test
    void anInputFailureIsAUserError() {
        created(a("failed").error("Invalid image dimensions: width must be a multiple of 8"));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Rejected.class, r -> assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR));
    }

    @Test
    void aModelCrashIsUnconfirmedForReconcileToCloseAsBilled() {
        created(a("failed").error("CUDA out of memory. Tried to allocate 2.00 GiB"));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("prediction_failed");
            assertThat(u.requestId()).isEqualTo(ID);
        });
    }

    @Test
    void anAbortedPredictionNeverRanAndIsUnavailable() {
        created(a("starting"));
        pollGoes(a("aborted").unstarted());

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("aborted");
            assertThat(u.requestId()).isEqualTo(ID);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
    }

    @Test
    void aPredictionCanceledBeforeItStartedIsUnavailable() {
        created(a("canceled").unstarted());

        assertThat(adapter(wm.baseUrl()).generate(aCall()))
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("canceled"));
    }

    @Test
    void aPredictionCanceledWhileRunningIsUnconfirmed() {
        created(a("canceled").started());

        assertThat(adapter(wm.baseUrl()).generate(aCall()))
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("canceled_while_running"));
    }

    @Test
    void aPredictionStillStartingAtTheCallTimeoutIsUnconfirmedWithItsId() {
        created(a("starting"));
        pollGoes(a("starting"));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(Duration.ofSeconds(1)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("timeout");
            assertThat(u.requestId()).isEqualTo(ID);
        });
        wm.verify(0, postRequestedFor(urlPathEqualTo("/v1/predictions/" + ID + "/cancel")));
        wm.verify(postRequestedFor(urlPathEqualTo(CREATE_PATH)).withHeader("Cancel-After", equalTo("1s")));
    }

    @Test
    void aFailedDownloadAfterSuccessIsUnconfirmedWithTheId() {
        created(a("succeeded"));
        wm.stubFor(media().willReturn(json(200, "{}")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("result_download_failed");
            assertThat(u.requestId()).isEqualTo(ID);
        });
    }
}
