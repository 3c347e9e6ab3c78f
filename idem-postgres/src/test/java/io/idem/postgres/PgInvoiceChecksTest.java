package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.invoice.InvoiceCheck;
import io.idem.core.spi.UsageAnswer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The invoice check's claims (once per provider and day across nodes), results and drift event. */
class PgInvoiceChecksTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-30");
    private static final Duration STALE = Duration.ofMinutes(30);
    private final Instant t0 = Instant.parse("2026-12-01T03:00:00Z");
    private Database db;
    private PgInvoiceChecks checks;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(4);
        checks = new PgInvoiceChecks(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private InvoiceCheck check(String capture, List<UsageAnswer.Charge> unmatched) {
        return new InvoiceCheck(
                "primary",
                DAY,
                new BigDecimal("0.08"),
                new BigDecimal("0.12"),
                Optional.of(new BigDecimal(capture)),
                unmatched,
                unmatched.size(),
                true,
                t0);
    }

    @Test
    void aDayIsClaimedOnceAReleaseOrAStaleClaimFreesItAndADoneDayStaysDone() {
        assertThat(checks.claim("primary", DAY, t0, STALE)).isTrue();
        assertThat(checks.claim("primary", DAY, t0.plusSeconds(60), STALE))
                .as("held")
                .isFalse();
        assertThat(checks.claim("backup", DAY, t0, STALE))
                .as("another provider")
                .isTrue();
        checks.release("primary", DAY);
        assertThat(checks.claim("primary", DAY, t0.plusSeconds(120), STALE)).isTrue();
        assertThat(checks.claim("primary", DAY, t0.plus(Duration.ofMinutes(40)), STALE))
                .as("a node that died holding it")
                .isTrue();
        checks.record(check("1.0000", List.of()), false);
        assertThat(checks.claim("primary", DAY, t0.plus(Duration.ofHours(5)), STALE))
                .as("done")
                .isFalse();
    }

    @Test
    void aResultKeepsItsUnmatchedChargesAndADriftIsOneProviderEventPerDay() {
        var stray = new UsageAnswer.Charge(Optional.of("gen_stray"), new BigDecimal("0.04"), t0.minusSeconds(3600));
        var anonymous = new UsageAnswer.Charge(Optional.empty(), new BigDecimal("0.00"), t0.minusSeconds(60));
        checks.record(check("0.6667", List.of(stray, anonymous)), true);
        checks.record(check("0.6667", List.of(stray, anonymous)), true);

        InvoiceCheck read = checks.recent(Optional.of("primary"), 10).getFirst();
        assertThat(read.captureRate()).contains(new BigDecimal("0.6667"));
        assertThat(read.unmatched()).containsExactly(stray, anonymous);
        assertThat(read.unmatchedCount()).isEqualTo(2);
        long events = db.withConnection(c -> {
            try (var ps = c.prepareStatement(
                            "SELECT count(*) FROM provider_events WHERE type = 'invoice.drift' AND provider = 'primary'");
                    var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
        assertThat(events).isEqualTo(1);
    }
}
