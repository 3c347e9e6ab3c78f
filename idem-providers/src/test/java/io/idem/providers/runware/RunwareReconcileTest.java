package io.idem.providers.runware;

import static io.idem.providers.runware.RunwareFixture.JPEG;
import static io.idem.providers.runware.RunwareFixture.aCall;
import static io.idem.providers.runware.RunwareFixture.accepted;
import static io.idem.providers.runware.RunwareFixture.error;
import static io.idem.providers.runware.RunwareFixture.json;
import static io.idem.providers.runware.RunwareFixture.processing;
import static io.idem.providers.runware.RunwareFixture.refFor;
import static io.idem.providers.runware.RunwareFixture.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Reconcile asks getResponse about the task UUID we chose, so even a lost submit answer is found. */
class RunwareReconcileTest {
    @RegisterExtension
    static final RunwareFixture fixture = new RunwareFixture();

    @Test
    void aSubmitWhoseAnswerWasLostIsFoundAndDeliveredByReconcile() {
        GenerationCall call = aCall().timeout(Duration.ofMillis(300)).build();
        String task = call.reference();
        fixture.onSubmit(task, json(200, accepted(task)).withFixedDelay(1_500));
        RunwareAdapter adapter = fixture.adapter();

        Outcome lost = adapter.generate(call);
        fixture.onLookup(task, json(200, succeeded(task)));
        ReconcileAnswer answer = adapter.reconcile(refFor(call, Instant.now()));

        assertThat(lost)
                .isInstanceOfSatisfying(
                        Outcome.Unconfirmed.class, u -> assertThat(u.code()).isEqualTo("read_timeout"));
        assertThat(answer).isInstanceOfSatisfying(ReconcileAnswer.Delivered.class, d -> {
            assertThat(d.outcome().result().media().getFirst().bytes()).isEqualTo(JPEG);
            assertThat(d.outcome().requestId()).isEqualTo(task);
            assertThat(d.outcome().costUsd()).isEqualByComparingTo("0.0013");
        });
    }

    @Test
    void aTaskThatFailedAtTheVendorIsFailedAndNotBilled() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, error(task, "timeoutProvider", "The provider timed out.")));

        ReconcileAnswer answer = fixture.adapter().reconcile(ref(task, Instant.now()));

        assertThat(answer).isInstanceOfSatisfying(ReconcileAnswer.Failed.class, f -> {
            assertThat(f.billed()).isFalse();
            assertThat(f.detail()).contains("timeoutProvider");
        });
    }

    @Test
    void anUnknownTaskWasNeverBilled() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, """
                {"errors": [{"code": "taskNotFound", "message": "No task with this taskUUID.",
                 "taskType": "getResponse", "taskUUID": "%s"}]}
                """.formatted(task)));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now()))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void anUnknownTaskOlderThanRunwareIsKnownToRememberProvesNothing() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, """
                {"errors": [{"code": "taskNotFound", "message": "No task with this taskUUID.",
                 "taskType": "getResponse", "taskUUID": "%s"}]}
                """.formatted(task)));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now().minus(Duration.ofHours(2)))))
                .isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void aProcessingTaskIsStillUnknown() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, processing(task)));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now())))
                .isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void anEmptyAnswerIsNotTakenForNotFound() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, "{\"data\": []}"));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now())))
                .isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void aFailedLookupIsStillUnknown() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(401, """
                {"errors": [{"code": "invalidApiKey", "message": "Invalid API key.", "taskType": "authentication"}]}
                """));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now())))
                .isInstanceOf(ReconcileAnswer.StillUnknown.class);
    }

    @Test
    void aPolicyRefusalIsLeftToAnOperatorRatherThanFailedOverToAnotherProvider() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, error(task, "nsfwContentDetected", "NSFW content detected.")));

        assertThat(fixture.adapter().reconcile(ref(task, Instant.now())))
                .isInstanceOfSatisfying(
                        ReconcileAnswer.StillUnknown.class,
                        s -> assertThat(s.detail()).contains("policy").contains("fail"));
    }

    @Test
    void theProviderRequestIdIsAskedForWhenTheAttemptHasOne() {
        String task = UUID.randomUUID().toString();
        fixture.onLookup(task, json(200, succeeded(task)));
        AttemptRef ref = new AttemptRef(
                "runware", UUID.randomUUID().toString(), Optional.of(task), RunwareFixture.MODEL, Instant.now());

        assertThat(fixture.adapter().reconcile(ref)).isInstanceOf(ReconcileAnswer.Delivered.class);
    }

    private static AttemptRef ref(String task, Instant startedAt) {
        return new AttemptRef("runware", task, Optional.empty(), RunwareFixture.MODEL, startedAt);
    }
}
