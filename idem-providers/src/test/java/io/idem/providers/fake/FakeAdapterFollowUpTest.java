package io.idem.providers.fake;

import static io.idem.providers.fake.VendorFixture.aCall;
import static io.idem.providers.fake.VendorFixture.refFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Reconcile and cancel: asking the vendor, after the fact, what became of a call. */
class FakeAdapterFollowUpTest {
    private static VendorFixture fixture;
    private static FakeAdapter adapter;

    @BeforeAll
    static void start() {
        fixture = VendorFixture.start();
        adapter = fixture.adapter();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void reconcileByProviderRequestIdDelivers() {
        GenerationCall call = aCall().build();
        Outcome.Confirmed confirmed = (Outcome.Confirmed) adapter.generate(call);

        ReconcileAnswer answer = adapter.reconcile(refFor(call, confirmed.requestId()));

        assertThat(answer)
                .isInstanceOfSatisfying(
                        ReconcileAnswer.Delivered.class,
                        d -> assertThat(d.outcome().result().media().getFirst().bytes())
                                .isEqualTo(confirmed.result().media().getFirst().bytes()));
    }

    @Test
    void reconcileOfAReferenceTheVendorNeverSawIsNotBilled() {
        GenerationCall neverSent = aCall().build();

        assertThat(adapter.reconcile(refFor(neverSent))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void reconcileWithAnIdTheVendorDoesNotKnowFallsBackToTheReference() {
        GenerationCall call = aCall().build();
        adapter.generate(call);

        assertThat(adapter.reconcile(refFor(call, "gen_unknown"))).isInstanceOf(ReconcileAnswer.Delivered.class);
    }

    @Test
    void slowBeyondTheTimeoutIsUnconfirmedUntilTheVendorFinishes() {
        GenerationCall call =
                aCall().simulate("slow:1500").timeout(Duration.ofMillis(500)).build();

        assertThat(adapter.generate(call)).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
        assertThat(fixture.billedFor(call.reference())).isEmpty();

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() ->
                        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.Delivered.class));
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
    }

    @Test
    void cancelDuringSlowCancelsAndBillsNothing() throws Exception {
        GenerationCall call =
                aCall().simulate("slow:5000").timeout(Duration.ofSeconds(10)).build();
        CompletableFuture<Outcome> pending = CompletableFuture.supplyAsync(
                () -> adapter.generate(call), runnable -> Thread.ofVirtual().start(runnable));
        await().atMost(Duration.ofSeconds(3))
                .untilAsserted(() ->
                        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.StillUnknown.class));

        CancelAnswer answer = adapter.cancel(refFor(call));

        assertThat(answer).isInstanceOf(CancelAnswer.Canceled.class);
        Outcome outcome = pending.get(3, TimeUnit.SECONDS);
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("canceled"));
        assertThat(fixture.billedFor(call.reference())).isEmpty();
        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void cancelOfAFinishedGenerationIsTooLate() {
        GenerationCall call = aCall().build();
        Outcome.Confirmed confirmed = (Outcome.Confirmed) adapter.generate(call);

        assertThat(adapter.cancel(refFor(call, confirmed.requestId()))).isInstanceOf(CancelAnswer.TooLate.class);
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
    }

    @Test
    void cancelOfAReferenceTheVendorNeverSawIsUnclear() {
        assertThat(adapter.cancel(refFor(aCall().build()))).isInstanceOf(CancelAnswer.Unclear.class);
    }

    @Test
    void cancelOfAnUnknownIdIsUnclear() {
        assertThat(adapter.cancel(refFor(aCall().build(), "gen_unknown"))).isInstanceOf(CancelAnswer.Unclear.class);
    }
}
