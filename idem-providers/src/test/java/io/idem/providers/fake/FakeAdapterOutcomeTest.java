package io.idem.providers.fake;

import static io.idem.providers.fake.VendorFixture.aCall;
import static io.idem.providers.fake.VendorFixture.refFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One simulate mode per test: the outcome class, billable, and what the vendor's invoice says. */
class FakeAdapterOutcomeTest {
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
    void okIsConfirmedWithTheImageAndBilledOnce() {
        List<String> submitted = Collections.synchronizedList(new ArrayList<>());
        GenerationCall call = aCall().simulate("ok").listener(submitted::add).build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOf(Outcome.Confirmed.class);
        Outcome.Confirmed confirmed = (Outcome.Confirmed) outcome;
        assertThat(confirmed.billable()).isEqualTo(Billable.YES);
        assertThat(confirmed.httpStatus()).isEqualTo(200);
        assertThat(confirmed.costUsd()).isEqualByComparingTo("0.04");
        assertThat(confirmed.requestId()).startsWith("gen_");
        // a synchronous answer's id travels on the outcome; no separate early commit
        assertThat(submitted).isEmpty();
        assertThat(confirmed.result().media()).singleElement().satisfies(media -> {
            assertThat(media.mimeType()).isEqualTo("image/svg+xml");
            assertThat(new String(media.bytes(), StandardCharsets.UTF_8))
                    .startsWith("<svg")
                    .contains("A lighthouse over a cloud ocean");
        });
        assertThat(fixture.billedFor(call.reference()))
                .singleElement()
                .satisfies(entry -> assertThat(entry.id()).isEqualTo(confirmed.requestId()));
    }

    @Test
    void absentSimulateHeaderMeansOk() {
        GenerationCall call = aCall().build();

        assertThat(adapter.generate(call)).isInstanceOf(Outcome.Confirmed.class);
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
    }

    @Test
    void okWithSeveralImagesDeliversAndBillsEach() {
        GenerationCall call = aCall().images(3).build();

        Outcome.Confirmed confirmed = (Outcome.Confirmed) adapter.generate(call);

        assertThat(confirmed.result().media()).hasSize(3);
        assertThat(confirmed.costUsd()).isEqualByComparingTo(new BigDecimal("0.12"));
        assertThat(fixture.billedFor(call.reference()))
                .singleElement()
                .satisfies(entry -> assertThat(entry.costUsd()).isEqualByComparingTo("0.12"));
    }

    @Test
    void http503IsUnavailableAndBillsNothing() {
        GenerationCall call = aCall().simulate("http_503").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("http_503");
            assertThat(u.httpStatus()).isEqualTo(503);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void http429IsRateLimitedAndBillsNothing() {
        GenerationCall call = aCall().simulate("http_429").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class, u -> assertThat(u.code()).isEqualTo("rate_limited"));
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void aRateLimitCarriesTheVendorsRetryAfterAndABare429None() {
        Outcome limited = adapter.generate(aCall().simulate("rate_limited:7").build());
        Outcome bare = adapter.generate(aCall().simulate("http_429").build());

        assertThat(limited).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.httpStatus()).isEqualTo(429);
            assertThat(u.retryAfter()).contains(java.time.Duration.ofSeconds(7));
        });
        assertThat(bare)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.retryAfter()).isEmpty());
    }

    @Test
    void refuseIsUnavailableBecauseTheBodyNeverLeft() {
        GenerationCall call = aCall().simulate("refuse").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unavailable.class,
                        u -> assertThat(u.code()).isEqualTo("connection_closed_before_send"));
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void disconnectIsUnconfirmedBecauseTheBodyLeftAndTheVendorBilled() {
        GenerationCall call = aCall().simulate("disconnect").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("connection_lost"));
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.Delivered.class);
    }

    @Test
    void malformedIsUnavailableAndBillsNothing() {
        GenerationCall call = aCall().simulate("malformed").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("malformed_response");
            assertThat(u.requestId()).startsWith("gen_");
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void userErrorIsRejectedKeepingTheVendorCode() {
        GenerationCall call = aCall().simulate("user_error").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR);
            assertThat(r.code()).isEqualTo("invalid_size");
            assertThat(r.httpStatus()).isEqualTo(400);
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void policyIsRejectedAsPolicy() {
        GenerationCall call = aCall().simulate("policy").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.POLICY);
            assertThat(r.code()).isEqualTo("content_policy_violation");
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void authIsRejectedAsConfig() {
        GenerationCall call = aCall().simulate("auth").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("invalid_api_key");
            assertThat(r.httpStatus()).isEqualTo(401);
        });
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }

    @Test
    void timeoutIsUnconfirmedAndReconcileFindsTheBilledResult() {
        GenerationCall call =
                aCall().simulate("timeout").timeout(Duration.ofSeconds(1)).build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("read_timeout"));
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
        assertThat(adapter.reconcile(refFor(call)))
                .isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, delivered -> {
                    assertThat(delivered.outcome().result().media()).hasSize(1);
                    assertThat(delivered.outcome().costUsd()).isEqualByComparingTo("0.04");
                    assertThat(delivered.outcome().requestId())
                            .isEqualTo(fixture.billedFor(call.reference())
                                    .getFirst()
                                    .id());
                });
    }

    @Test
    void lostIsUnconfirmedAndReconcileFindsItNotBilled() {
        GenerationCall call = aCall().simulate("lost").build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOf(Outcome.Unconfirmed.class);
        assertThat(outcome.billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(fixture.billedFor(call.reference())).isEmpty();
        assertThat(adapter.reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void slowWithinTheTimeoutIsConfirmed() {
        GenerationCall call = aCall().simulate("slow:200").build();

        assertThat(adapter.generate(call)).isInstanceOf(Outcome.Confirmed.class);
        assertThat(fixture.billedFor(call.reference())).hasSize(1);
    }

    @Test
    void unknownSimulateModeIsRejectedAsUserError() {
        GenerationCall call = aCall().simulate("explode").build();

        assertThat(adapter.generate(call)).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.USER_ERROR);
            assertThat(r.code()).isEqualTo("unknown_simulate_mode");
        });
        assertThat(fixture.billedFor(call.reference())).isEmpty();
    }
}
