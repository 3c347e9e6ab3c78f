package io.idem.providers.fake;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The fake vendor's memory: every generation it received, the index by the caller's reference, and
 * the invoice. A generation's status and its invoice line change together, inside one atomic
 * {@code compute} on the generation, so a cancel racing a completion leaves either a billed success
 * or an un-billed cancel, never a mix. Thread-safe.
 */
final class GenerationBook {
    private final InstantSource clock;
    private final BigDecimal pricePerImage;
    private final BigDecimal pricePerSecond;
    /** Running videos → when they finish by themselves (settled lazily, on the next look). */
    private final ConcurrentHashMap<String, java.time.Instant> due = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, Generation> byId = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> idByReference = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LedgerEntry> ledger = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, CountDownLatch> cancelSignals = new ConcurrentHashMap<>();

    GenerationBook(InstantSource clock, BigDecimal pricePerImage, BigDecimal pricePerSecond) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pricePerImage = Objects.requireNonNull(pricePerImage, "pricePerImage");
        this.pricePerSecond = Objects.requireNonNull(pricePerSecond, "pricePerSecond");
    }

    /** Accepts a video that renders for {@code render}, then succeeds (and bills) unless canceled first. */
    Generation startVideo(GenerationRequest request, Duration render) {
        Generation started = start(request);
        due.put(started.id(), clock.instant().plus(render));
        return started;
    }

    /** Accepts a generation; it runs until {@link #finish} or {@link #cancel}. */
    Generation start(GenerationRequest request) {
        String id = (request.video() ? "video_" : "gen_") + UUID.randomUUID();
        BigDecimal cost = request.video()
                ? pricePerSecond.multiply(BigDecimal.valueOf(request.seconds()))
                : pricePerImage.multiply(BigDecimal.valueOf(request.n()));
        Generation generation = new Generation(id, request, GenerationStatus.RUNNING, cost, null);
        cancelSignals.put(id, new CountDownLatch(1));
        byId.put(id, generation);
        if (request.reference() != null) {
            // A reused reference points at the latest generation that carried it.
            idByReference.put(request.reference(), id);
        }
        return generation;
    }

    /** Accepts a generation that ends at once as {@code end}. */
    Generation record(GenerationRequest request, GenerationStatus end) {
        return finish(start(request).id(), end);
    }

    /**
     * Ends a running generation as {@code end} (billing it on success). A generation that already
     * ended (canceled meanwhile) stays as it is. Returns the generation as it now stands.
     */
    Generation finish(String id, GenerationStatus end) {
        due.remove(id);
        Generation finished = byId.computeIfPresent(id, (key, current) -> {
            if (current.status() != GenerationStatus.RUNNING) {
                return current;
            }
            Generation next = current.become(end, clock.instant());
            if (next.billed()) {
                ledger.put(key, next.ledgerEntry());
            }
            return next;
        });
        cancelSignals.remove(id);
        if (finished == null) {
            throw new IllegalStateException("no generation " + id);
        }
        return finished;
    }

    CancelResult cancel(String id) {
        settle(id);
        due.remove(id);
        CancelResult[] result = {new CancelResult.NotFound()};
        byId.computeIfPresent(id, (key, current) -> {
            if (current.status() != GenerationStatus.RUNNING) {
                result[0] = new CancelResult.AlreadyFinished(current);
                return current;
            }
            Generation canceled = current.become(GenerationStatus.CANCELED, clock.instant());
            ledger.remove(key);
            result[0] = new CancelResult.Canceled(canceled);
            return canceled;
        });
        if (result[0] instanceof CancelResult.Canceled) {
            CountDownLatch signal = cancelSignals.remove(id);
            if (signal != null) {
                signal.countDown();
            }
        }
        return result[0];
    }

    /** Waits up to {@code max} for the generation to be canceled; true if it was. */
    boolean awaitCancel(String id, Duration max) throws InterruptedException {
        CountDownLatch signal = cancelSignals.get(id);
        if (signal == null) {
            return find(id).map(g -> g.status() == GenerationStatus.CANCELED).orElse(false);
        }
        return signal.await(max.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** How many generations are running now (received and neither finished nor canceled). */
    long running() {
        settleAll();
        return byId.values().stream()
                .filter(g -> g.status() == GenerationStatus.RUNNING)
                .count();
    }

    Optional<Generation> find(String id) {
        settle(id);
        return Optional.ofNullable(byId.get(id));
    }

    /** Finishes a video whose render time is over. */
    private void settle(String id) {
        java.time.Instant at = due.get(id);
        if (at != null && !clock.instant().isBefore(at) && due.remove(id, at)) {
            finish(id, GenerationStatus.SUCCEEDED);
        }
    }

    private void settleAll() {
        due.keySet().forEach(this::settle);
    }

    Optional<Generation> findByReference(String reference) {
        return Optional.ofNullable(idByReference.get(reference)).flatMap(this::find);
    }

    /** The invoice, oldest line first. */
    List<LedgerEntry> ledger() {
        settleAll();
        List<LedgerEntry> lines = new ArrayList<>(ledger.values());
        lines.sort(Comparator.comparing(LedgerEntry::billedAt).thenComparing(LedgerEntry::id));
        return List.copyOf(lines);
    }

    /** Forgets the invoice; the generations stay, so lookups still answer. */
    void resetLedger() {
        ledger.clear();
    }
}
