package io.idem.core.engine;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.moderation.ModerationPolicy;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-checks parked jobs against their providers (DESIGN §4 "Reconcile and review"): delivered →
 * succeeded; definitively not delivered → the next candidate; anything else stays for an operator.
 * A job is held by one node while it is checked, so sweeps on several nodes never act twice.
 */
public final class Reconciler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    /** Short, so a node that dies mid-sweep blocks its held jobs only briefly. */
    private static final Duration HOLD = Duration.ofSeconds(30);

    private static final int BATCH = 10;
    /** How long past a call's own deadline a vendor's "never heard of it" is trusted. */
    private static final Duration NOT_FOUND_GRACE = Duration.ofSeconds(5);

    private final ReviewStore store;
    private final ProviderRegistry providers;
    private final AssetStore assets;
    private final InstantSource clock;
    private final Duration interval;
    private final Duration maxAge;
    private final Runnable afterRequeue;
    private final Set<String> reviewOnly;
    private final ModeratedResults moderation;
    private final AtomicLong sweeps = new AtomicLong();
    private volatile Periodic loop;

    /** What one check did. */
    public enum Verdict {
        PROMOTED,
        CONTINUED,
        FAILED,
        UNCHANGED,
        EXPIRED,
        NOT_HELD
    }

    public Reconciler(
            ReviewStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Duration interval,
            Duration maxAge,
            Runnable afterRequeue) {
        this(
                store,
                providers,
                assets,
                clock,
                new Timing(interval, maxAge),
                afterRequeue,
                Set.of(),
                ModerationPolicy.NONE);
    }

    /** How often the sweep runs, and how long a parked job is asked about before it expires. */
    public record Timing(Duration interval, Duration maxAge) {}

    /**
     * With {@code reviewOnly}: providers whose parked jobs the sweep leaves alone (it neither holds
     * them, nor asks the vendor, nor expires them), so that they wait in the review queue until an
     * operator reconciles or decides; {@link #reconcileNow} still asks. The demo's fake providers are
     * such, never configured ones. With {@code moderation}: a found result of a moderated lane is
     * delivered only when the moderator passes it; otherwise the job stays in review for an operator
     * (a reconcile never delivers what a worker would have withheld).
     */
    public Reconciler(
            ReviewStore store,
            ProviderRegistry providers,
            AssetStore assets,
            InstantSource clock,
            Timing timing,
            Runnable afterRequeue,
            Set<String> reviewOnly,
            ModerationPolicy moderation) {
        this.moderation = new ModeratedResults(moderation, assets);
        this.store = store;
        this.providers = providers;
        this.assets = assets;
        this.clock = clock;
        this.interval = timing.interval();
        this.maxAge = timing.maxAge();
        this.afterRequeue = afterRequeue;
        this.reviewOnly = Set.copyOf(reviewOnly);
    }

    /**
     * One sweep over every parked job not checked within half an interval (but a review-only
     * provider's); returns how many moved.
     */
    public int sweepOnce() {
        int moved = 0;
        List<ReviewCase> due;
        do {
            Instant now = clock.instant();
            due = store.holdDue(BATCH, now, HOLD, now.minus(interval.dividedBy(2)), reviewOnly);
            for (ReviewCase held : due) {
                Verdict verdict = check(held, "reconciler");
                if (verdict == Verdict.PROMOTED || verdict == Verdict.CONTINUED || verdict == Verdict.FAILED) {
                    moved++;
                }
            }
        } while (due.size() == BATCH);
        sweeps.incrementAndGet();
        return moved;
    }

    /** How many sweeps this reconciler has finished. */
    public long sweeps() {
        return sweeps.get();
    }

    /** Checks one job now (an operator's request). */
    public Verdict reconcileNow(UUID jobId, String actor) {
        return store.holdOne(jobId, clock.instant(), HOLD)
                .map(held -> check(held, actor))
                .orElse(Verdict.NOT_HELD);
    }

    private Verdict check(ReviewCase held, String actor) {
        try {
            return decide(held, actor);
        } catch (RuntimeException e) {
            log.error(
                    "reconciling job {} failed; it stays in review", held.job().id(), e);
            store.letGo(held, clock.instant());
            return Verdict.UNCHANGED;
        }
    }

    private Verdict decide(ReviewCase held, String actor) {
        Instant now = clock.instant();
        Optional<Attempt> pending = held.pendingAttempt();
        if (pending.isPresent() && pending.get().status() == AttemptStatus.SUCCEEDED) {
            // A late result already landed on its attempt: promote it, no provider call needed.
            return moved(store.promote(held, pending.get().id(), Optional.empty(), List.of(), actor, now));
        }
        boolean tooOld = held.job()
                .review()
                .map(r -> r.since().plus(maxAge).isBefore(now))
                .orElse(false);
        if (tooOld) {
            return store.expire(held, actor, now) ? Verdict.EXPIRED : Verdict.NOT_HELD;
        }
        if (pending.isEmpty()) {
            store.letGo(held, now);
            return Verdict.UNCHANGED;
        }
        Attempt attempt = pending.get();
        Optional<ProviderRegistry.Provider> provider = providers.find(attempt.provider());
        if (provider.isEmpty()) {
            store.letGo(held, now);
            return Verdict.UNCHANGED;
        }
        AttemptRef ref = new AttemptRef(
                attempt.provider(),
                attempt.id().toString(),
                attempt.providerRequestId(),
                attempt.model(),
                attempt.startedAt());
        ReconcileAnswer answer = ask(provider.get(), ref);
        return switch (answer) {
            case ReconcileAnswer.Delivered delivered -> deliver(held, attempt, delivered, actor, now);
            case ReconcileAnswer.NotBilled notBilled ->
                trusted(held, attempt, now)
                        ? continued(store.closeUndelivered(held, attempt.id(), notBilled.detail(), false, actor, now))
                        : unchanged(held, now);
            case ReconcileAnswer.Failed failed ->
                trusted(held, attempt, now)
                        ? continued(store.closeUndelivered(
                                held, attempt.id(), failed.detail(), failed.billed(), actor, now))
                        : unchanged(held, now);
            case ReconcileAnswer.Rejected rejected ->
                store.failRejected(
                                held,
                                attempt.id(),
                                rejected.kind().wire(),
                                rejected.code(),
                                rejected.detail(),
                                actor,
                                now)
                        ? Verdict.FAILED
                        : Verdict.NOT_HELD;
            case ReconcileAnswer.StillUnknown unknown -> unchanged(held, now);
            case ReconcileAnswer.Unsupported unsupported -> unchanged(held, now);
        };
    }

    /**
     * A vendor's "not found" only proves the call never arrived once the call can no longer arrive:
     * after its own deadline plus a grace period.
     */
    private boolean trusted(ReviewCase held, Attempt attempt, Instant now) {
        Duration deadline =
                Duration.ofSeconds(held.job().spec().timeoutSeconds()).plus(NOT_FOUND_GRACE);
        return attempt.startedAt().plus(deadline).isBefore(now);
    }

    private Verdict deliver(
            ReviewCase held, Attempt attempt, ReconcileAnswer.Delivered delivered, String actor, Instant now) {
        List<StoredAsset> saved;
        try {
            saved = assets.save(attempt.id(), delivered.outcome().result());
        } catch (IOException e) {
            log.error("could not store the reconciled result of attempt {}", attempt.id(), e);
            delivered.outcome().result().discard(); // the next check fetches it again
            return unchanged(held, now);
        }
        if (moderation.check(held.job(), saved).filter(v -> !v.delivers()).isPresent()) {
            return unchanged(held, now); // withheld: an operator decides, with the result kept
        }
        return moved(store.promote(held, attempt.id(), Optional.of(delivered.outcome()), saved, actor, now));
    }

    private static ReconcileAnswer ask(ProviderRegistry.Provider provider, AttemptRef ref) {
        try {
            return provider.adapter().reconcile(ref);
        } catch (RuntimeException e) {
            log.error("adapter '{}' failed to reconcile attempt {}", ref.provider(), ref.reference(), e);
            return new ReconcileAnswer.StillUnknown(
                    "adapter failed: " + e.getClass().getSimpleName());
        }
    }

    private Verdict unchanged(ReviewCase held, Instant now) {
        store.letGo(held, now);
        return Verdict.UNCHANGED;
    }

    private static Verdict moved(boolean applied) {
        return applied ? Verdict.PROMOTED : Verdict.NOT_HELD;
    }

    private Verdict continued(boolean applied) {
        if (applied) {
            afterRequeue.run();
        }
        return applied ? Verdict.CONTINUED : Verdict.NOT_HELD;
    }

    public void start() {
        loop = Periodic.start("reconcile sweep", interval, interval, () -> {
            int moved = sweepOnce();
            if (moved > 0) {
                log.info("reconcile moved {} parked jobs", moved);
            }
        });
    }

    @Override
    public void close() {
        Periodic running = loop;
        if (running != null) {
            running.close();
        }
    }
}
