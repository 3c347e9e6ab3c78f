package io.idem.core.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditedCostTest {
    private static final BigDecimal EXPECTED = new BigDecimal("0.04");
    private static final GenerationResult IMAGE =
            new GenerationResult(List.of(new GenerationResult.Media(new byte[] {1}, "image/png")));

    @Test
    void aConfirmedResultCostsWhatTheVendorSaidElseThePrice() {
        assertThat(AuditedCost.of(new Outcome.Confirmed(IMAGE, 200, "r", new BigDecimal("0.031")), EXPECTED))
                .isEqualByComparingTo("0.031");
        assertThat(AuditedCost.of(new Outcome.Confirmed(IMAGE, 200, "r", null), EXPECTED))
                .isEqualByComparingTo(EXPECTED);
    }

    @Test
    void anUnknownBillCountsTheExpectedCostAndAKnownUnbilledOneNothing() {
        assertThat(AuditedCost.of(new Outcome.Unconfirmed("timeout", "lost", 0, null), EXPECTED))
                .isEqualByComparingTo(EXPECTED);
        assertThat(AuditedCost.of(new Outcome.Unavailable("http_503", "down", 503, null), EXPECTED))
                .isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(AuditedCost.of(
                        new Outcome.Rejected(RejectionKind.USER_ERROR, "bad", "bad prompt", 400, null), EXPECTED))
                .isEqualByComparingTo(BigDecimal.ZERO);
    }
}
