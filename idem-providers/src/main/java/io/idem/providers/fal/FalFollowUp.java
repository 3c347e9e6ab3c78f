package io.idem.providers.fal;

import io.idem.core.outcome.Outcome;
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
 * Asks fal, later, what became of a call: by request id through the queue API (falling back to the
 * request history when the queue no longer knows it), or, when the submit answer was lost, by the
 * input we sent within a time window of the history. Lookups and cancels cannot bill. Thread-safe.
 */
final class FalFollowUp {
    /** Clock difference and submit latency we allow around a call's start. */
    static final Duration SKEW = Duration.ofMinutes(2);
    /**
     * How long a request that started just before its start deadline may still run: only after it
     * does a history without our request prove the request never ran.
     */
    static final Duration RUN_ALLOWANCE = Duration.ofMinutes(10);
    /** How far back the history is searched by id when the attempt's start is unknown. */
    static final Duration ID_LOOKBACK = Duration.ofDays(7);

    private final FalQueue queue;
    private final FalCompletion completion;
    private final FalHistory history;
    private final SubmissionBook book;
    private final InstantSource clock;

    FalFollowUp(FalQueue queue, FalCompletion completion, SubmissionBook book, InstantSource clock) {
        this.queue = queue;
        this.completion = completion;
        this.history = new FalHistory(queue);
        this.book = book;
        this.clock = clock;
    }

    ReconcileAnswer reconcile(AttemptRef attempt, String endpointId) {
        Optional<String> id = requestId(attempt);
        return id.isPresent() ? byId(endpointId, id.get(), attempt) : byInput(endpointId, attempt);
    }

    CancelAnswer cancel(AttemptRef attempt, String endpointId) {
        return requestId(attempt)
                .map(id -> queue.cancel(endpointId, id))
                .orElseGet(() -> new CancelAnswer.Unclear(
                        "no fal request id for attempt " + attempt.reference() + "; nothing to cancel by"));
    }

    private Optional<String> requestId(AttemptRef attempt) {
        return attempt.providerRequestId()
                .or(() -> book.find(attempt.reference()).flatMap(SubmissionBook.Submission::requestId))
                .filter(FalEndpoints::validRequestId);
    }

    private ReconcileAnswer byId(String endpointId, String id, AttemptRef attempt) {
        return switch (queue.status(endpointId, id, Optional.empty(), VendorCalls.LOOKUP_TIMEOUT)) {
            case FalQueue.StatusRead.Read read ->
                read.status().phase() == FalStatus.Phase.COMPLETED
                        ? answer(completion.finish(endpointId, id, read.status()))
                        : new ReconcileAnswer.StillUnknown("fal reports request " + id + " "
                                + read.status().raw());
            case FalQueue.StatusRead.NotFound notFound -> {
                Instant start = attempt.startedAt() != null
                        ? attempt.startedAt().minus(SKEW)
                        : clock.instant().minus(ID_LOOKBACK);
                yield searched(
                        endpointId,
                        history.find(
                                endpointId,
                                start,
                                clock.instant().plus(SKEW),
                                Optional.of(id),
                                e -> e.requestId().equals(id)),
                        "fal's queue and history do not know request " + id);
            }
            case FalQueue.StatusRead.Unreadable unreadable -> new ReconcileAnswer.StillUnknown(unreadable.detail());
        };
    }

    private ReconcileAnswer byInput(String endpointId, AttemptRef attempt) {
        Optional<SubmissionBook.Submission> sent = book.find(attempt.reference());
        if (sent.isEmpty()) {
            return new ReconcileAnswer.StillUnknown("no fal request id, and the input sent for attempt "
                    + attempt.reference() + " is not known on this node; match fal's request history by hand");
        }
        SubmissionBook.Submission submission = sent.get();
        Set<String> others = book.idsOfOthers(attempt.reference());
        FalHistory.Search search = history.find(
                endpointId,
                submission.sentAt().minus(SKEW),
                clock.instant().plus(SKEW),
                Optional.empty(),
                e -> !others.contains(e.requestId()) && submission.sameInputAs(e.input()));
        if (search instanceof FalHistory.Search.Found found) {
            book.identify(attempt.reference(), found.entry().requestId());
        }
        Instant proofAfter = submission.sentAt().plus(submission.timeout()).plus(RUN_ALLOWANCE);
        String none = clock.instant().isAfter(proofAfter)
                ? null
                : "no request in fal's history matches attempt " + attempt.reference()
                        + " yet; it may still be queued or running";
        return searched(endpointId, search, none);
    }

    /**
     * The answer a history search gives. {@code stillUnknownIfNone} is why an empty result proves
     * nothing yet, or {@code null} when an empty result proves the request never ran.
     */
    private ReconcileAnswer searched(String endpointId, FalHistory.Search search, String stillUnknownIfNone) {
        return switch (search) {
            case FalHistory.Search.Found found -> fromHistory(endpointId, found.entry());
            case FalHistory.Search.None none ->
                stillUnknownIfNone != null
                        ? new ReconcileAnswer.StillUnknown(stillUnknownIfNone)
                        : new ReconcileAnswer.NotBilled(
                                "no request in fal's history matches, long past its start deadline");
            case FalHistory.Search.Ambiguous ambiguous ->
                new ReconcileAnswer.StillUnknown(
                        ambiguous.count() + " requests in fal's history match the input; an operator must pick");
            case FalHistory.Search.Failed failed -> new ReconcileAnswer.StillUnknown(failed.detail());
        };
    }

    private ReconcileAnswer fromHistory(String endpointId, FalHistory.Entry entry) {
        String id = entry.requestId();
        if (entry.statusCode().isEmpty()) {
            return new ReconcileAnswer.StillUnknown("fal request " + id + " has not ended");
        }
        int status = entry.statusCode().getAsInt();
        if (status == 200) {
            return entry.output().isObject()
                            && !FalDelivery.mediaUrls(entry.output()).isEmpty()
                    ? answer(completion.deliverListed(entry.output(), entry.input(), id))
                    : byIdWithoutHistory(endpointId, id);
        }
        if (status >= 500) {
            return new ReconcileAnswer.NotBilled(
                    "fal request " + id + " ended with HTTP " + status + "; fal never charges server errors");
        }
        if (status >= 400) {
            return rejected("rejected input", "fal request " + id + " ended with HTTP " + status);
        }
        return new ReconcileAnswer.StillUnknown("fal request " + id + " ended with HTTP " + status);
    }

    private ReconcileAnswer byIdWithoutHistory(String endpointId, String id) {
        if (queue.status(endpointId, id, Optional.empty(), VendorCalls.LOOKUP_TIMEOUT)
                        instanceof FalQueue.StatusRead.Read read
                && read.status().phase() == FalStatus.Phase.COMPLETED) {
            return answer(completion.finish(endpointId, id, read.status()));
        }
        return new ReconcileAnswer.StillUnknown("fal request " + id + " succeeded but its result cannot be read");
    }

    private static ReconcileAnswer answer(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed confirmed -> new ReconcileAnswer.Delivered(confirmed);
            case Outcome.Unavailable u -> new ReconcileAnswer.NotBilled(u.code() + ": " + u.message());
            // A rejection ends the job without fallback (DESIGN §3), but a Failed answer would send
            // the job to its next candidate: only an operator can fail it from review.
            case Outcome.Rejected r -> rejected(r.kind().wire(), r.code() + ": " + r.message());
            case Outcome.Unconfirmed u -> new ReconcileAnswer.StillUnknown(u.code() + ": " + u.message());
            case Outcome.AdapterFault f -> new ReconcileAnswer.StillUnknown(f.message());
        };
    }

    /** fal: a 422 "may still be charged if a runner spent GPU time". */
    private static ReconcileAnswer rejected(String kind, String detail) {
        return new ReconcileAnswer.StillUnknown("fal rejected the request (" + kind + ", " + detail
                + "); it may have been billed; an operator should fail the job, as no other provider may take it");
    }
}
