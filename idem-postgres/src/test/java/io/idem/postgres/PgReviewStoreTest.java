package io.idem.postgres;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.Settlement;
import io.idem.testkit.Outcomes;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconcile sweep's holds: which parked jobs it takes, and which it leaves for an operator. */
class PgReviewStoreTest {
    private static final Instant T0 = Instant.parse("2026-01-05T09:00:00Z");
    private static final Duration HOLD = Duration.ofSeconds(30);

    private Database db;
    private PgReviewStore review;
    private PgJobIntake intake;
    private PgJobQueueStore queue;

    @BeforeEach
    void open() {
        db = TestDatabases.fresh();
        review = new PgReviewStore(db);
        intake = new PgJobIntake(db);
        queue = new PgJobQueueStore(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theSweepPassesOverJobsParkedOnALeftProviderWithoutHoldingThem() {
        UUID onPrimary = parkedOn("primary");
        UUID onBackup = parkedOn("backup");

        assertThat(review.holdDue(10, T0.plusSeconds(60), HOLD, T0.plusSeconds(30), Set.of("primary")))
                .extracting(held -> held.job().id())
                .containsExactly(onBackup);
        assertThat(review.holdOne(onPrimary, T0.plusSeconds(61), HOLD))
                .as("not held by the sweep, so an operator's reconcile takes it at once")
                .map(ReviewCase::hold)
                .isPresent();
    }

    @Test
    void withNothingLeftEveryDueJobIsHeld() {
        UUID onPrimary = parkedOn("primary");
        assertThat(review.holdDue(10, T0.plusSeconds(60), HOLD, T0.plusSeconds(30), Set.of()))
                .extracting(held -> held.job().id())
                .containsExactly(onPrimary);
    }

    /** A job whose only candidate accepted the call and then went silent: parked in manual_review. */
    private UUID parkedOn(String provider) {
        UUID id = intake.accept("alice", aJobSpec().candidates(provider).build(), null, T0)
                .jobId();
        ClaimedJob claimed = queue.claim("w", 1, T0, Duration.ofMinutes(1)).getFirst();
        UUID attempt = UUID.randomUUID();
        queue.writeAhead(claimed.lease(), new AttemptDraft(attempt, provider, "m", 1, new BigDecimal("0.04")), T0);
        var settlement = new Settlement(
                attempt, provider, Outcomes.unconfirmed(), 10, new BigDecimal("0.04"), new JobMove.Park("unconfirmed"));
        assertThat(queue.settle(claimed.lease(), settlement, "worker:w", T0)).isTrue();
        return id;
    }
}
