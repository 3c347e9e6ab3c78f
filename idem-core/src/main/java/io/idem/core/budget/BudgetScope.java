package io.idem.core.budget;

/** The three budgets a call can fall under. */
public enum BudgetScope {
    /** The provider's daily budget: a refusal skips the provider ({@code budget_exhausted}). */
    PROVIDER,
    /** The API key's daily budget: a refusal is a gateway block ({@code budget_exceeded}). */
    KEY_DAILY,
    /** The API key's monthly budget: a gateway block as well. */
    KEY_MONTHLY;

    /** How a refusal on this budget is reported. */
    public String reason() {
        return switch (this) {
            case PROVIDER -> "budget_exhausted";
            case KEY_DAILY, KEY_MONTHLY -> "budget_exceeded";
        };
    }

    /** The period in the key's words ({@code daily}, {@code monthly}), or {@code daily} for a provider. */
    public String period() {
        return this == KEY_MONTHLY ? "monthly" : "daily";
    }
}
