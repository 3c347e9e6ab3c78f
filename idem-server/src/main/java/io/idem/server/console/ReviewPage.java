package io.idem.server.console;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.domain.ReviewAction;
import io.idem.core.engine.Reconciler;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.javalin.http.Context;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;

/**
 * The review queue: jobs parked in manual_review, with the operator's four moves. Each decision is
 * the same audited store call the API makes ({@code POST /v1/jobs/{id}/reconcile|resolve}), and
 * shows in the job's trace with its note and the operator's key id.
 */
final class ReviewPage {
    private static final int MAX_NOTE = 2000;

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final JobReads reads;
    private final ReviewStore review;
    private final Reconciler reconciler;
    private final JobViews views;
    private final InstantSource clock;

    ReviewPage(
            ConsoleGate gate,
            ConsolePages pages,
            JobReads reads,
            ReviewStore review,
            Reconciler reconciler,
            JobViews views,
            InstantSource clock) {
        this.gate = gate;
        this.pages = pages;
        this.reads = reads;
        this.review = review;
        this.reconciler = reconciler;
        this.views = views;
        this.clock = clock;
    }

    void show(Context ctx) {
        Visitor visitor = gate.operator(ctx);
        var now = clock.instant();
        List<Views.ReviewItem> items = reads.reviewQueue(200).stream()
                .map(job -> new Views.ReviewItem(
                        views.summary(job),
                        job.review().map(r -> JobViews.reason(r.reason())).orElse("—"),
                        job.review().map(r -> JobViews.age(r.since(), now)).orElse("—")))
                .toList();
        pages.page(
                ctx,
                "review.jte",
                new Views.ReviewView(
                        ConsolePages.frame(visitor, "Review queue", "review"),
                        items,
                        decided(ctx.queryParam("decided"))));
    }

    void decide(Context ctx) {
        Visitor visitor = gate.operator(ctx);
        gate.checkForm(ctx, visitor.session());
        Job job = parked(ctx.pathParam("id"));
        String action = ctx.formParam("action") == null ? "" : ctx.formParam("action");
        String note = ctx.formParam("note") == null ? "" : ctx.formParam("note").strip();
        String actor = visitor.caller().actor();
        String outcome = action.equals("reconcile") ? reconcile(job, actor) : resolve(job, action, note, actor);
        visitor.session().flash(outcome);
        ConsolePages.redirect(ctx, "/console/review?decided=" + job.id());
    }

    /** Asks the provider now; the message says where the job stands afterwards, in the queue's words. */
    private String reconcile(Job job, String actor) {
        String shortId = job.id().toString().substring(0, 8);
        if (reconciler.reconcileNow(job.id(), actor) == Reconciler.Verdict.NOT_HELD) {
            return "Another node is reconciling job " + shortId + " right now; try again shortly.";
        }
        JobState now = reads.find(job.id(), null).map(Job::state).orElse(job.state());
        return "Reconciled job " + shortId + ": "
                + switch (now) {
                    case SUCCEEDED -> "the provider delivered; the job succeeded.";
                    case FAILED -> "the provider did not deliver and no candidate is left; the job failed.";
                    case QUEUED, RUNNING -> "the provider did not deliver; the job moved on to its next candidate.";
                    case MANUAL_REVIEW -> "the provider could not say; the job stays here for a decision.";
                    case CANCELED -> "the job was canceled meanwhile.";
                };
    }

    /** An audited operator decision: retry, fail or confirm_result, each with its note. */
    private String resolve(Job job, String action, String note, String actor) {
        if (note.isEmpty() || note.length() > MAX_NOTE) {
            throw new ConsoleRefusal(
                    400, "Write a note (1 to " + MAX_NOTE + " characters): every decision is audited with it.");
        }
        String problem = io.idem.server.http.StrictJson.textProblem(note);
        if (problem != null) {
            throw new ConsoleRefusal(400, "The note contains " + problem + ".");
        }
        ReviewAction decision = ReviewAction.fromWire(action)
                .orElseThrow(() -> new ConsoleRefusal(400, "Choose Reconcile, Retry, Fail or Confirm result."));
        var now = clock.instant();
        boolean moved = switch (decision) {
            case RETRY -> review.resolveRetry(job.id(), actor, note, now);
            case FAIL -> review.resolveFail(job.id(), actor, note, now);
            case CONFIRM_RESULT -> confirm(job, actor, note);
        };
        String shortId = job.id().toString().substring(0, 8);
        if (!moved) {
            throw new ConsoleRefusal(
                    409, "Job " + shortId + " changed meanwhile (a reconcile may hold it); reload and try again.");
        }
        return "Decision recorded for job " + shortId + ": " + action.replace('_', ' ') + ".";
    }

    private static String decided(String id) {
        try {
            return id == null ? null : UUID.fromString(id).toString();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private boolean confirm(Job job, String actor, String note) {
        Attempt attempt = ReviewCase.pendingAttemptOf(job)
                .orElseThrow(() -> new ConsoleRefusal(
                        409, "This job has no attempt whose result could be confirmed; choose Retry or Fail."));
        return review.resolveConfirm(job.id(), List.of(), attempt.id(), actor, note, clock.instant());
    }

    private Job parked(String id) {
        Job job;
        try {
            job = reads.find(UUID.fromString(id), null).orElseThrow(() -> ConsoleRefusal.notFound("job"));
        } catch (IllegalArgumentException e) {
            throw ConsoleRefusal.notFound("job");
        }
        if (job.state() != JobState.MANUAL_REVIEW) {
            throw new ConsoleRefusal(
                    409, "Job " + job.id() + " is " + JobViews.stateLabel(job.state()) + ", no longer in review.");
        }
        return job;
    }
}
