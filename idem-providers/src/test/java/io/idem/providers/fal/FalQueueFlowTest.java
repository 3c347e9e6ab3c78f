package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static io.idem.providers.fal.FalStubs.APP;
import static io.idem.providers.fal.FalStubs.ENDPOINT;
import static io.idem.providers.fal.FalStubs.PNG;
import static io.idem.providers.fal.FalStubs.REQUEST_ID;
import static io.idem.providers.fal.FalStubs.aCall;
import static io.idem.providers.fal.FalStubs.adapter;
import static io.idem.providers.fal.FalStubs.completedWithError;
import static io.idem.providers.fal.FalStubs.media;
import static io.idem.providers.fal.FalStubs.modelError;
import static io.idem.providers.fal.FalStubs.output;
import static io.idem.providers.fal.FalStubs.png;
import static io.idem.providers.fal.FalStubs.resultOf;
import static io.idem.providers.fal.FalStubs.status;
import static io.idem.providers.fal.FalStubs.statusOf;
import static io.idem.providers.fal.FalStubs.submit;
import static io.idem.providers.fal.FalStubs.submitted;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.junit5.WireMockRuntimeInfo;
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

/** Submit, poll, result, download: the queue API's happy path and how each way it ends maps. */
class FalQueueFlowTest {
    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    private static WireMockRuntimeInfo info() {
        return wm.getRuntimeInfo();
    }

    private static void acceptSubmit() {
        wm.stubFor(submit().willReturn(json(200, submitted(info()))));
    }

    private static void statusGoes(String... states) {
        for (int i = 0; i < states.length; i++) {
            String from = i == 0 ? STARTED : "poll-" + i;
            var stub = statusOf().inScenario("queue").whenScenarioStateIs(from);
            if (i < states.length - 1) {
                stub = stub.willSetStateTo("poll-" + (i + 1));
            }
            wm.stubFor(stub.willReturn(json(200, states[i])));
        }
    }

    @Test
    void aQueuedRequestIsFollowedThroughProgressToItsDownloadedImage() {
        acceptSubmit();
        statusGoes(status("IN_QUEUE", info()), status("IN_PROGRESS", info()), status("COMPLETED", info()));
        wm.stubFor(resultOf().willReturn(json(200, output(info()))));
        wm.stubFor(media().willReturn(png()));
        SeenIds ids = new SeenIds();
        URI callback = URI.create("https://idem.example/v1/hooks/fal?attempt=a1&sig=abc");

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(Duration.ofSeconds(5), ids, Optional.of(callback)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Confirmed.class, c -> {
            assertThat(c.requestId()).isEqualTo(REQUEST_ID);
            assertThat(c.result().media()).singleElement().satisfies(m -> {
                assertThat(m.bytes()).isEqualTo(PNG);
                assertThat(m.mimeType()).isEqualTo("image/png");
            });
            assertThat(c.costUsd()).isEqualByComparingTo(new BigDecimal("0.025"));
        });
        assertThat(ids.seen).containsExactly(REQUEST_ID);
        wm.verify(postRequestedFor(urlPathEqualTo("/" + ENDPOINT))
                .withHeader("Authorization", equalTo("Key " + FalStubs.SECRET))
                .withHeader(FalSubmission.START_TIMEOUT_HEADER, equalTo("5"))
                .withQueryParam("fal_webhook", equalTo(callback.toString())));
    }

    @Test
    void theOutputFormatAndTheProviderOptionsGoIntoTheInput() {
        acceptSubmit();
        statusGoes(status("COMPLETED", info()));
        wm.stubFor(resultOf().willReturn(json(200, output(info()))));
        wm.stubFor(media().willReturn(png()));

        adapter(wm.baseUrl())
                .generate(io.idem.providers.http.CallBuilder.withImage(
                        aCall(), io.idem.providers.http.CallBuilder.JPEG_AT_10));

        wm.verify(postRequestedFor(urlPathEqualTo("/" + ENDPOINT))
                .withRequestBody(matching(".*\"output_format\":\"jpeg\".*"))
                .withRequestBody(matching(".*\"seed\":3.*")));
    }

    @Test
    void theInputCarriesPromptSizeAndCount() {
        acceptSubmit();
        statusGoes(status("COMPLETED", info()));
        wm.stubFor(resultOf().willReturn(json(200, output(info()))));
        wm.stubFor(media().willReturn(png()));

        adapter(wm.baseUrl()).generate(aCall());

        wm.verify(postRequestedFor(urlPathEqualTo("/" + ENDPOINT))
                .withRequestBody(matching(".*\"prompt\":\"a cat\".*"))
                .withRequestBody(matching(".*\"image_size\":\\{\"width\":1024,\"height\":1024}.*")));
    }

    @Test
    void aPolicyFailureAfterRunningIsAPolicyRejection() {
        acceptSubmit();
        statusGoes(status("IN_PROGRESS", info()), completedWithError("content_policy_violation", info()));
        wm.stubFor(resultOf().willReturn(json(422, modelError("content_policy_violation", "flagged"))));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.POLICY);
            assertThat(r.code()).isEqualTo("content_policy_violation");
            assertThat(r.requestId()).isEqualTo(REQUEST_ID);
        });
    }

    @Test
    void aRunnerFailureAfterSubmitIsUnavailable() {
        acceptSubmit();
        statusGoes(completedWithError("runner_disconnected", info()));
        wm.stubFor(resultOf().willReturn(json(503, FalStubs.infraError("Runner disconnected", "runner_disconnected"))));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("runner_disconnected");
            assertThat(u.requestId()).isEqualTo(REQUEST_ID);
        });
    }

    @Test
    void aFailedDownloadAfterSuccessIsUnconfirmedWithTheRequestId() {
        acceptSubmit();
        statusGoes(status("COMPLETED", info()));
        wm.stubFor(resultOf().willReturn(json(200, output(info()))));
        wm.stubFor(media().willReturn(json(404, "{}")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("result_download_failed");
            assertThat(u.requestId()).isEqualTo(REQUEST_ID);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
    }

    @Test
    void aRequestStillRunningAtTheCallTimeoutIsUnconfirmedAndLeftToFinish() {
        acceptSubmit();
        statusGoes(status("IN_PROGRESS", info()));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(Duration.ofSeconds(1)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unconfirmed.class, u -> {
            assertThat(u.code()).isEqualTo("timeout");
            assertThat(u.requestId()).isEqualTo(REQUEST_ID);
        });
        wm.verify(0, putRequestedFor(urlPathEqualTo(APP + "/requests/" + REQUEST_ID + "/cancel")));
    }

    @Test
    void aRequestStillQueuedAtTheCallTimeoutIsCanceledAndUnavailable() {
        acceptSubmit();
        statusGoes(status("IN_QUEUE", info()));
        wm.stubFor(put(urlPathEqualTo(APP + "/requests/" + REQUEST_ID + "/cancel"))
                .willReturn(json(202, "{\"status\":\"CANCELLATION_REQUESTED\"}")));

        Outcome outcome = adapter(wm.baseUrl()).generate(aCall(Duration.ofSeconds(1)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("not_started");
            assertThat(u.requestId()).isEqualTo(REQUEST_ID);
        });
        wm.verify(1, putRequestedFor(urlPathEqualTo(APP + "/requests/" + REQUEST_ID + "/cancel")));
        wm.verify(1, postRequestedFor(urlPathEqualTo("/" + ENDPOINT)));
    }
}
