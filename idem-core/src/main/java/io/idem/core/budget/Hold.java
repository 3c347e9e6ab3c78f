package io.idem.core.budget;

import java.math.BigDecimal;
import java.util.Objects;

/** What became of asking to hold a call's expected cost ({@link SpendStore#tryHold}). */
public sealed interface Hold {
    /** Held against every budget the call falls under: it may go out, and must be settled. */
    record Held() implements Hold {}

    /** The call falls under no budget: nothing held, nothing to settle. */
    record Uncapped() implements Hold {}

    /** A budget has no room for this call's expected cost: it must not go out. Nothing was held. */
    record Refused(BudgetScope scope, BigDecimal capUsd) implements Hold {
        public Refused {
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(capUsd, "capUsd");
        }
    }
}
