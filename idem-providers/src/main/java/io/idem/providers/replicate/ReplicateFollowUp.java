package io.idem.providers.replicate;

import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.SubmissionBook;
import io.idem.providers.http.VendorCalls;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;

/**
 * Asks Replicate, later, what became of a call: by prediction id, or, when the create answer was
 * lost, by listing the predictions created around the call and matching model and input. Lookups
 * cannot bill; the cancel POST is sent once. Thread-safe.
 */
final class ReplicateFollowUp {
    /** Clock difference and create latency allowed around a call's start. */
    static final Duration SKEW = Duration.ofMinutes(2);

    private final ReplicateApi api;
    private final PredictionVerdicts verdicts;
    private final PredictionListing listing;
    private final SubmissionBook book;
    private final InstantSource clock;

    ReplicateFollowUp(ReplicateApi api, PredictionVerdicts verdicts, SubmissionBook book, InstantSource clock) {
        this.api = api;
        this.verdicts = verdicts;
        this.listing = new PredictionListing(api);
        this.book = book;
        this.clock = clock;
    }

    ReconcileAnswer reconcile(AttemptRef attempt, ReplicateModel model) {
        Optional<String> id = predictionId(attempt);
        return id.isPresent() ? byId(id.get()) : byInput(attempt, model);
    }

    CancelAnswer cancel(AttemptRef attempt) {
        return predictionId(attempt)
                .map(api::cancel)
                .orElseGet(() -> new CancelAnswer.Unclear(
                        "no prediction id for attempt " + attempt.reference() + "; nothing to cancel by"));
    }

    private Optional<String> predictionId(AttemptRef attempt) {
        return attempt.providerRequestId()
                .or(() -> book.find(attempt.reference()).flatMap(SubmissionBook.Submission::requestId))
                .filter(ReplicateEndpoints::validPredictionId);
    }

    private ReconcileAnswer byId(String id) {
        return switch (api.prediction(id, Optional.empty(), VendorCalls.LOOKUP_TIMEOUT)) {
            case ReplicateApi.Read.Found found -> verdicts.answer(found.prediction());
            case ReplicateApi.Read.NotFound notFound ->
                new ReconcileAnswer.StillUnknown("Replicate does not know prediction " + id);
            case ReplicateApi.Read.Unreadable unreadable -> new ReconcileAnswer.StillUnknown(unreadable.detail());
        };
    }

    private ReconcileAnswer byInput(AttemptRef attempt, ReplicateModel model) {
        Optional<SubmissionBook.Submission> sent = book.find(attempt.reference());
        if (sent.isEmpty()) {
            return new ReconcileAnswer.StillUnknown("no prediction id, and the input sent for attempt "
                    + attempt.reference() + " is not known on this node; match Replicate's prediction list by hand");
        }
        SubmissionBook.Submission submission = sent.get();
        Set<String> others = book.idsOfOthers(attempt.reference());
        Instant latest = submission.sentAt().plus(submission.timeout()).plus(SKEW);
        PredictionListing.Search search = listing.find(
                submission.sentAt().minus(SKEW),
                latest,
                model,
                p -> !others.contains(p.id()) && submission.sameInputAs(p.input()));
        return switch (search) {
            case PredictionListing.Search.Found found -> {
                book.identify(attempt.reference(), found.prediction().id());
                // The listed object may be abridged: read the prediction itself.
                yield byId(found.prediction().id());
            }
            case PredictionListing.Search.None none
            when none.inputsRemoved() ->
                new ReconcileAnswer.StillUnknown("Replicate removed the inputs of predictions in the window of attempt "
                        + attempt.reference() + "; an operator must check");
            case PredictionListing.Search.None none
            when clock.instant().isBefore(latest) ->
                new ReconcileAnswer.StillUnknown("no prediction matches attempt " + attempt.reference() + " yet");
            case PredictionListing.Search.None none ->
                new ReconcileAnswer.NotBilled("Replicate created no prediction for attempt " + attempt.reference());
            case PredictionListing.Search.Ambiguous ambiguous ->
                new ReconcileAnswer.StillUnknown(ambiguous.count() + " predictions match the input of attempt "
                        + attempt.reference() + "; an operator must pick");
            case PredictionListing.Search.Failed failed -> new ReconcileAnswer.StillUnknown(failed.detail());
        };
    }
}
