package io.idem.providers.fal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.fal.FalStubs.APP;
import static io.idem.providers.fal.FalStubs.ENDPOINT;
import static io.idem.providers.fal.FalStubs.REQUEST_ID;
import static io.idem.providers.fal.FalStubs.aCall;
import static io.idem.providers.fal.FalStubs.adapter;
import static io.idem.providers.fal.FalStubs.media;
import static io.idem.providers.fal.FalStubs.output;
import static io.idem.providers.fal.FalStubs.png;
import static io.idem.providers.fal.FalStubs.refFor;
import static io.idem.providers.fal.FalStubs.resultOf;
import static io.idem.providers.fal.FalStubs.status;
import static io.idem.providers.fal.FalStubs.statusOf;
import static io.idem.providers.fal.FalStubs.submit;
import static io.idem.providers.http.VendorStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.MovableClock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Cancel, reconcile by request id, and the lost submit found again in fal's request history. */
class FalFollowUpTest {
    private static final String CANCEL = APP + "/requests/" + REQUEST_ID + "/cancel";
    private static final String HISTORY = "/v1/models/requests/by-endpoint";

    @RegisterExtension
    static WireMockExtension wm = FalStubs.server();

    @Test
    void cancelingAQueuedRequestRemovesItUnbilled() {
        wm.stubFor(statusOf().willReturn(json(200, status("IN_QUEUE", wm.getRuntimeInfo()))));
        wm.stubFor(put(urlPathEqualTo(CANCEL)).willReturn(json(202, "{\"status\":\"CANCELLATION_REQUESTED\"}")));

        CancelAnswer answer = adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer).isInstanceOf(CancelAnswer.Canceled.class);
        wm.verify(
                putRequestedFor(urlPathEqualTo(CANCEL)).withHeader("Authorization", equalTo("Key " + FalStubs.SECRET)));
    }

    @Test
    void cancelingARunningRequestIsTooLateThoughTheSignalIsSent() {
        wm.stubFor(statusOf().willReturn(json(200, status("IN_PROGRESS", wm.getRuntimeInfo()))));
        wm.stubFor(put(urlPathEqualTo(CANCEL)).willReturn(json(202, "{\"status\":\"CANCELLATION_REQUESTED\"}")));

        CancelAnswer answer = adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer).isInstanceOf(CancelAnswer.TooLate.class);
        wm.verify(1, putRequestedFor(urlPathEqualTo(CANCEL)));
    }

    @Test
    void cancelingACompletedRequestIsTooLate() {
        wm.stubFor(statusOf().willReturn(json(200, status("IN_QUEUE", wm.getRuntimeInfo()))));
        wm.stubFor(put(urlPathEqualTo(CANCEL)).willReturn(json(400, "{\"status\":\"ALREADY_COMPLETED\"}")));

        CancelAnswer answer = adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer).isInstanceOf(CancelAnswer.TooLate.class);
    }

    @Test
    void reconcileByIdCollectsACompletedResult() {
        wm.stubFor(statusOf().willReturn(json(200, status("COMPLETED", wm.getRuntimeInfo()))));
        wm.stubFor(resultOf().willReturn(json(200, output(wm.getRuntimeInfo()))));
        wm.stubFor(media().willReturn(png()));

        ReconcileAnswer answer = adapter(wm.baseUrl()).reconcile(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Delivered.class,
                        d -> assertThat(d.outcome().requestId()).isEqualTo(REQUEST_ID));
    }

    @Test
    void reconcileByIdOfARunningRequestIsStillUnknown() {
        wm.stubFor(statusOf().willReturn(json(200, status("IN_PROGRESS", wm.getRuntimeInfo()))));

        ReconcileAnswer answer = adapter(wm.baseUrl()).reconcile(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer).isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void reconcileByIdOfARequestThatFailedOnAServerErrorIsNotBilled() {
        wm.stubFor(
                statusOf().willReturn(json(200, FalStubs.completedWithError("startup_timeout", wm.getRuntimeInfo()))));
        wm.stubFor(resultOf().willReturn(json(504, FalStubs.infraError("Startup timed out", "startup_timeout"))));

        ReconcileAnswer answer = adapter(wm.baseUrl()).reconcile(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aPolicyRejectionFoundByReconcileIsLeftForAnOperatorNotFailedOver() {
        wm.stubFor(statusOf()
                .willReturn(json(200, FalStubs.completedWithError("content_policy_violation", wm.getRuntimeInfo()))));
        wm.stubFor(resultOf().willReturn(json(422, FalStubs.modelError("content_policy_violation", "flagged"))));

        ReconcileAnswer answer = adapter(wm.baseUrl()).reconcile(refFor(aCall(), Optional.of(REQUEST_ID)));

        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("policy").contains("operator"));
    }

    @Test
    void aSubmitThatTimedOutIsFoundInTheHistoryByItsInput() {
        wm.stubFor(submit().willReturn(json(200, "{}").withFixedDelay(3_000)));
        FalAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = aCall("a cat", Duration.ofSeconds(1), AttemptListener.NONE, Optional.empty());
        Outcome lost = adapter.generate(call);
        wm.stubFor(history()
                .willReturn(json(
                        200,
                        historyPage(entry("other-1", 200, "a dog", true), entry(REQUEST_ID, 200, "a cat", true)))));
        wm.stubFor(media().willReturn(png()));

        ReconcileAnswer answer = adapter.reconcile(refFor(call, Optional.empty()));

        assertThat(lost)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class,
                        u -> assertThat(u.requestId()).isNull());
        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Delivered.class,
                        d -> assertThat(d.outcome().requestId()).isEqualTo(REQUEST_ID));
        wm.verify(getRequestedFor(urlPathEqualTo(HISTORY))
                .withQueryParam("endpoint_id", equalTo(ENDPOINT))
                .withQueryParam("expand", equalTo("payloads"))
                .withHeader("Authorization", equalTo("Key " + FalStubs.SECRET)));
    }

    @Test
    void aLostSubmitAbsentFromTheHistoryLongAfterItsDeadlineWasNeverBilled() {
        MovableClock clock = new MovableClock();
        FalAdapter adapter = adapter(wm.baseUrl(), clock);
        GenerationCall call = loseSubmit(adapter);
        wm.stubFor(history().willReturn(json(200, historyPage(entry("other-1", 200, "a dog", true)))));
        clock.advance(FalFollowUp.RUN_ALLOWANCE.plusMinutes(1));

        assertThat(adapter.reconcile(refFor(call, Optional.empty()))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aLostSubmitAbsentFromTheHistorySoonAfterMayStillBeRunning() {
        FalAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = loseSubmit(adapter);
        wm.stubFor(history().willReturn(json(200, historyPage())));

        assertThat(adapter.reconcile(refFor(call, Optional.empty()))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void twoRequestsWithTheSameInputAreLeftForAnOperator() {
        FalAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = loseSubmit(adapter);
        wm.stubFor(history()
                .willReturn(json(
                        200, historyPage(entry("twin-1", 200, "a cat", true), entry("twin-2", 200, "a cat", true)))));

        assertThat(adapter.reconcile(refFor(call, Optional.empty())))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("2 requests"));
    }

    @Test
    void aLostSubmitThatEndedOnAServerErrorIsNotBilled() {
        FalAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = loseSubmit(adapter);
        wm.stubFor(history().willReturn(json(200, historyPage(entry(REQUEST_ID, 503, "a cat", false)))));

        assertThat(adapter.reconcile(refFor(call, Optional.empty()))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aLostSubmitFromAnotherNodeCannotBeMatchedHere() {
        GenerationCall call = loseSubmit(adapter(wm.baseUrl()));
        wm.stubFor(history().willReturn(json(200, historyPage(entry(REQUEST_ID, 200, "a cat", true)))));

        ReconcileAnswer answer = adapter(wm.baseUrl()).reconcile(refFor(call, Optional.empty()));

        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("not known on this node"));
    }

    private static GenerationCall loseSubmit(FalAdapter adapter) {
        wm.stubFor(submit().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        GenerationCall call = aCall("a cat", Duration.ofSeconds(2), AttemptListener.NONE, Optional.empty());
        assertThat(adapter.generate(call)).isInstanceOf(Outcome.Unconfirmed.class);
        return call;
    }

    private static MappingBuilder history() {
        return get(urlPathEqualTo(HISTORY));
    }

    private static String historyPage(String... entries) {
        return "{\"items\":[" + String.join(",", entries) + "],\"next_cursor\":null,\"has_more\":false}";
    }

    private static String entry(String requestId, int status, String prompt, boolean withOutput) {
        String out = withOutput ? output(wm.getRuntimeInfo()) : "null";
        return """
                {"request_id":"%s","endpoint_id":"%s","sent_at":"2026-01-01T00:00:00Z","started_at":"2026-01-01T00:00:01Z",
                 "ended_at":"2026-01-01T00:00:03Z","status_code":%d,"duration":2.0,
                 "json_input":{"prompt":"%s","image_size":{"width":1024,"height":1024},"num_inference_steps":28},
                 "json_output":%s}""".formatted(requestId, ENDPOINT, status, prompt, out);
    }
}
