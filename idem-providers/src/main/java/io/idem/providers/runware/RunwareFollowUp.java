package io.idem.providers.runware;

import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.Credential;
import io.idem.providers.http.VendorText;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reconciles an earlier call by asking {@code getResponse} about the task UUID we chose, which
 * works even when the submit's answer was lost. Thread-safe.
 */
final class RunwareFollowUp {
    private final RunwareLookup lookup;
    private final RunwareMedia media;
    private final RunwareTuning tuning;
    private final InstantSource clock;
    private final Supplier<Credential> credential;
    private final Function<Credential, VendorText> text;
    private final PricingModel pricing;

    RunwareFollowUp(
            RunwareLookup lookup,
            RunwareMedia media,
            RunwareTuning tuning,
            InstantSource clock,
            Supplier<Credential> credential,
            Function<Credential, VendorText> text,
            PricingModel pricing) {
        this.lookup = lookup;
        this.media = media;
        this.tuning = tuning;
        this.clock = clock;
        this.credential = credential;
        this.text = text;
        this.pricing = pricing;
    }

    ReconcileAnswer reconcile(AttemptRef attempt) {
        Credential key = credential.get();
        if (key instanceof Credential.Missing missing) {
            return new ReconcileAnswer.StillUnknown("cannot ask the vendor: " + missing.reason());
        }
        String task = attempt.providerRequestId().orElse(attempt.reference());
        if (RunwareAdapter.taskUuid(task).isEmpty()) {
            return new ReconcileAnswer.StillUnknown("'" + task + "' is not a Runware task UUID");
        }
        return switch (lookup.state(task, key, tuning.lookupTimeout())) {
            case RunwareTaskState.Succeeded succeeded ->
                switch (media.fetch(succeeded.items())) {
                    case RunwareMedia.Fetch.Fetched fetched ->
                        new ReconcileAnswer.Delivered(fetched.confirmed(task, pricing));
                    case RunwareMedia.Fetch.NotFetched notFetched ->
                        new ReconcileAnswer.StillUnknown(notFetched.detail());
                };
            case RunwareTaskState.Failed failed -> failed(task, failed.error(), text.apply(key));
            case RunwareTaskState.Running running ->
                new ReconcileAnswer.StillUnknown("task " + task + ": " + running.detail());
            case RunwareTaskState.NotFound notFound -> notFound(attempt, task, notFound.detail(), text.apply(key));
            case RunwareTaskState.Unknown unknown -> new ReconcileAnswer.StillUnknown(unknown.detail());
        };
    }

    private static ReconcileAnswer failed(String task, RunwareError error, VendorText text) {
        String detail = "vendor reports task " + task + " failed: " + error.code() + ": " + text.safe(error.message());
        Optional<RejectionKind> kind = RunwareErrorReader.rejection(error);
        if (kind.filter(k -> k != RejectionKind.CONFIG).isPresent()) {
            // A reconcile answer cannot say "rejected": continuing would send a refused prompt to
            // the next provider, which DESIGN §3 forbids for policy and input errors.
            return new ReconcileAnswer.StillUnknown(
                    detail + " (" + kind.get().wire() + "; resolve the job with 'fail')");
        }
        return new ReconcileAnswer.Failed(detail, false);
    }

    private ReconcileAnswer notFound(AttemptRef attempt, String task, String detail, VendorText text) {
        boolean recent = attempt.startedAt() != null
                && attempt.startedAt().plus(tuning.notFoundTrustedFor()).isAfter(clock.instant());
        if (!recent) {
            return new ReconcileAnswer.StillUnknown("vendor has no task " + task
                    + ", but the attempt is older than Runware is known to remember tasks");
        }
        return new ReconcileAnswer.NotBilled("vendor has no task " + task + ": " + text.safe(detail));
    }
}
