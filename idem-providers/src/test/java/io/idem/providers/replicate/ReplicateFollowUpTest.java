package io.idem.providers.replicate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.idem.providers.http.VendorStandIn.json;
import static io.idem.providers.replicate.ReplicateStubs.ID;
import static io.idem.providers.replicate.ReplicateStubs.aCall;
import static io.idem.providers.replicate.ReplicateStubs.adapter;
import static io.idem.providers.replicate.ReplicateStubs.cancelPrediction;
import static io.idem.providers.replicate.ReplicateStubs.create;
import static io.idem.providers.replicate.ReplicateStubs.getPrediction;
import static io.idem.providers.replicate.ReplicateStubs.list;
import static io.idem.providers.replicate.ReplicateStubs.media;
import static io.idem.providers.replicate.ReplicateStubs.page;
import static io.idem.providers.replicate.ReplicateStubs.refFor;
import static io.idem.providers.replicate.ReplicateStubs.webp;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.MovableClock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Reconcile by id, cancel, and the lost create found again in Replicate's prediction list. */
class ReplicateFollowUpTest {
    @RegisterExtension
    static WireMockExtension wm = ReplicateStubs.server();

    private static ReplicateStubs.Prediction a(String status) {
        return ReplicateStubs.prediction(wm.baseUrl(), status);
    }

    private static ReplicateStubs.Prediction another(String id, String status) {
        return new ReplicateStubs.Prediction(wm.baseUrl(), id, status);
    }

    private static ReconcileAnswer reconcileById(ReplicateStubs.Prediction state) {
        wm.stubFor(getPrediction().willReturn(json(200, state.json())));
        return adapter(wm.baseUrl()).reconcile(refFor(aCall(), Optional.of(ID)));
    }

    @Test
    void aSucceededPredictionIsDelivered() {
        wm.stubFor(media().willReturn(webp()));

        assertThat(reconcileById(a("succeeded")))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Delivered.class,
                        d -> assertThat(d.outcome().requestId()).isEqualTo(ID));
    }

    @Test
    void aFailedPredictionFailedAndWasBilled() {
        assertThat(reconcileById(a("failed").error("CUDA out of memory")))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Failed.class,
                        f -> assertThat(f.billed()).isTrue());
    }

    @Test
    void aSafetyFailureFoundByReconcileIsLeftForAnOperatorNotFailedOver() {
        assertThat(reconcileById(a("failed").error("NSFW content detected")))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("policy").contains("operator"));
    }

    @Test
    void anAbortedPredictionWasNotBilled() {
        assertThat(reconcileById(a("aborted").unstarted())).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aPredictionCanceledBeforeItStartedWasNotBilled() {
        assertThat(reconcileById(a("canceled").unstarted())).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aPredictionCanceledWhileRunningWasBilled() {
        assertThat(reconcileById(a("canceled").started()))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Failed.class,
                        f -> assertThat(f.billed()).isTrue());
    }

    @Test
    void aProcessingPredictionIsStillUnknown() {
        assertThat(reconcileById(a("processing"))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void cancelingAStartingPredictionEndsItUnbilled() {
        wm.stubFor(cancelPrediction()
                .willReturn(json(200, a("canceled").unstarted().json())));

        CancelAnswer answer = adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(ID)));

        assertThat(answer).isInstanceOf(CancelAnswer.Canceled.class);
        wm.verify(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                        urlPathEqualTo("/v1/predictions/" + ID + "/cancel"))
                .withHeader("Authorization", equalTo("Bearer " + ReplicateStubs.SECRET)));
    }

    @Test
    void cancelingARunningPredictionIsTooLate() {
        wm.stubFor(
                cancelPrediction().willReturn(json(200, a("canceled").started().json())));

        assertThat(adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(ID))))
                .isInstanceOf(CancelAnswer.TooLate.class);
    }

    @Test
    void cancelingAFinishedPredictionIsTooLate() {
        wm.stubFor(cancelPrediction().willReturn(json(200, a("succeeded").json())));

        assertThat(adapter(wm.baseUrl()).cancel(refFor(aCall(), Optional.of(ID))))
                .isInstanceOf(CancelAnswer.TooLate.class);
    }

    @Test
    void aCreateThatTimedOutIsFoundInTheListingByModelAndInput() {
        wm.stubFor(create().willReturn(json(201, "{}").withFixedDelay(3_000)));
        ReplicateAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = aCall(Duration.ofSeconds(1));
        Outcome lost = adapter.generate(call);
        wm.stubFor(list().willReturn(json(
                200,
                page(
                        another("other-prompt", "succeeded").prompt("a dog").json(),
                        another("other-model", "succeeded").model("acme/other").json(),
                        a("succeeded").json()))));
        wm.stubFor(getPrediction().willReturn(json(200, a("succeeded").json())));
        wm.stubFor(media().willReturn(webp()));

        ReconcileAnswer answer = adapter.reconcile(refFor(call, Optional.empty()));

        assertThat(lost)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class,
                        u -> assertThat(u.requestId()).isNull());
        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Delivered.class,
                        d -> assertThat(d.outcome().requestId()).isEqualTo(ID));
        wm.verify(getRequestedFor(urlPathEqualTo("/v1/predictions"))
                .withQueryParam("created_after", matching("\\d{4}-.*Z"))
                .withQueryParam("created_before", matching("\\d{4}-.*Z")));
    }

    @Test
    void aLostCreateAbsentFromTheListingAfterItsWindowWasNeverBilled() {
        MovableClock clock = new MovableClock();
        ReplicateAdapter adapter = adapter(wm.baseUrl(), clock);
        GenerationCall call = loseCreate(adapter);
        wm.stubFor(list().willReturn(json(
                200, page(another("other-prompt", "succeeded").prompt("a dog").json()))));
        clock.advance(ReplicateFollowUp.SKEW.plusMinutes(1));

        assertThat(adapter.reconcile(refFor(call, Optional.empty()))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void aLostCreateAbsentFromTheListingWithinItsWindowIsStillUnknown() {
        ReplicateAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = loseCreate(adapter);
        wm.stubFor(list().willReturn(json(200, page())));

        assertThat(adapter.reconcile(refFor(call, Optional.empty()))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void twoPredictionsWithTheSameInputAreLeftForAnOperator() {
        ReplicateAdapter adapter = adapter(wm.baseUrl());
        GenerationCall call = loseCreate(adapter);
        wm.stubFor(list().willReturn(json(
                200,
                page(
                        another("twin1", "succeeded").json(),
                        another("twin2", "succeeded").json()))));

        assertThat(adapter.reconcile(refFor(call, Optional.empty())))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("2 predictions"));
    }

    @Test
    void predictionsWhoseInputsWereRemovedCannotBeRuledOut() {
        MovableClock clock = new MovableClock();
        ReplicateAdapter adapter = adapter(wm.baseUrl(), clock);
        GenerationCall call = loseCreate(adapter);
        wm.stubFor(list().willReturn(
                        json(200, page(another("old", "succeeded").dataRemoved().json()))));
        clock.advance(Duration.ofHours(2));

        assertThat(adapter.reconcile(refFor(call, Optional.empty())))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("removed"));
    }

    private static GenerationCall loseCreate(ReplicateAdapter adapter) {
        wm.stubFor(create().willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        GenerationCall call = aCall(Duration.ofSeconds(2));
        assertThat(adapter.generate(call)).isInstanceOf(Outcome.Unconfirmed.class);
        return call;
    }
}
