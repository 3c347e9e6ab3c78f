package io.idem.core.invoice;

import io.idem.core.engine.ProviderRegistry;
import io.idem.core.spi.InvoiceChecks;
import io.idem.core.spi.UsageAnswer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily invoice check: for every provider whose vendor reports its usage, compares Idem's audit
 * of a UTC day with the vendor's own report: the capture rate (audit ÷ vendor) and every vendor
 * charge Idem has no attempt for. Once per provider and day across nodes (the store's claim), after
 * {@link InvoiceSettings#hourUtc()} of the day after; a rate outside the tolerance is the provider
 * event {@code invoice.drift}, which alerts. Thread-safe.
 */
public final class InvoiceReconciler {
    private static final Logger log = LoggerFactory.getLogger(InvoiceReconciler.class);
    /** A node that died holding a claim leaves it to the others after this long. */
    static final Duration CLAIM_STALE_AFTER = Duration.ofMinutes(30);

    private final ProviderRegistry providers;
    private final InvoiceChecks store;
    private final InstantSource clock;
    private final InvoiceSettings settings;

    public InvoiceReconciler(
            ProviderRegistry providers, InvoiceChecks store, InstantSource clock, InvoiceSettings settings) {
        this.providers = providers;
        this.store = store;
        this.clock = clock;
        this.settings = settings;
    }

    /** The periodic pass: once the hour has come, checks yesterday for every provider not yet checked. */
    public void tick() {
        Instant now = clock.instant();
        if (now.atZone(ZoneOffset.UTC).getHour() < settings.hourUtc()) {
            return;
        }
        LocalDate yesterday = LocalDate.ofInstant(now, ZoneOffset.UTC).minusDays(1);
        for (String provider : providers.all().keySet()) {
            try {
                if (store.claim(provider, yesterday, now, CLAIM_STALE_AFTER)) {
                    Optional<InvoiceCheck> done = check(provider, yesterday);
                    if (done.isEmpty()) {
                        store.release(provider, yesterday);
                    }
                }
            } catch (RuntimeException e) {
                log.warn("invoice check of {} for {} failed; the next pass tries again", provider, yesterday, e);
                store.release(provider, yesterday);
            }
        }
    }

    /**
     * Checks one provider and day now and records the result (an operator may check any day again);
     * empty when the vendor reports no usage, or its report could not be read.
     */
    public Optional<InvoiceCheck> check(String provider, LocalDate day) {
        var found = providers.find(provider);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        UsageAnswer answer = found.get().adapter().usage(day);
        InvoiceChecks.Audit audit = store.audit(provider, day);
        Instant now = clock.instant();
        InvoiceCheck check = switch (answer) {
            case UsageAnswer.Itemized itemized -> itemized(provider, day, audit, itemized.charges(), now);
            case UsageAnswer.Total total ->
                new InvoiceCheck(
                        provider,
                        day,
                        audit.usd(),
                        total.usd(),
                        rate(audit.usd(), total.usd()),
                        List.of(),
                        0,
                        false,
                        now);
            case UsageAnswer.Unsupported u -> null;
            case UsageAnswer.Failed f -> {
                log.warn("the usage report of {} for {} could not be read: {}", provider, day, f.detail());
                yield null;
            }
        };
        if (check == null) {
            return Optional.empty();
        }
        boolean drift = check.drifts(settings.tolerance());
        store.record(check, drift);
        log.info(
                "invoice check {} {}: audit ${} vendor ${} capture {} unmatched {}{}",
                provider,
                day,
                check.auditUsd().toPlainString(),
                check.vendorUsd().toPlainString(),
                check.captureRate().map(BigDecimal::toPlainString).orElse("n/a"),
                check.unmatchedCount(),
                drift ? " (drift)" : "");
        return Optional.of(check);
    }

    private static InvoiceCheck itemized(
            String provider, LocalDate day, InvoiceChecks.Audit audit, List<UsageAnswer.Charge> charges, Instant now) {
        BigDecimal vendor = BigDecimal.ZERO;
        List<UsageAnswer.Charge> unmatched = new ArrayList<>();
        int count = 0;
        for (UsageAnswer.Charge charge : charges) {
            vendor = vendor.add(charge.costUsd());
            boolean known =
                    charge.requestId().filter(audit.requestIds()::contains).isPresent();
            if (!known) {
                count++;
                if (unmatched.size() < InvoiceCheck.MAX_UNMATCHED_KEPT) {
                    unmatched.add(charge);
                }
            }
        }
        return new InvoiceCheck(
                provider, day, audit.usd(), vendor, rate(audit.usd(), vendor), unmatched, count, true, now);
    }

    /** Audit ÷ vendor, to four places; a day both call free is a full capture. */
    static Optional<BigDecimal> rate(BigDecimal audit, BigDecimal vendor) {
        if (vendor.signum() == 0) {
            return audit.signum() == 0 ? Optional.of(BigDecimal.ONE) : Optional.empty();
        }
        return Optional.of(audit.divide(vendor, 4, RoundingMode.HALF_UP));
    }
}
