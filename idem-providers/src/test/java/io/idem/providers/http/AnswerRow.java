package io.idem.providers.http;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;

/**
 * One row of a vendor's error table: what one vendor answer ({@code status} and {@code body}) must
 * become. Named by {@code name} in a parameterized test's report.
 */
public record AnswerRow(
        String name, int status, String body, Class<? extends Outcome> outcome, RejectionKind kind, String code) {
    @Override
    public String toString() {
        return name;
    }
}
