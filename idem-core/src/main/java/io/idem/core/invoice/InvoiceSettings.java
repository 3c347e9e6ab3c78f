package io.idem.core.invoice;

/**
 * When the daily invoice check runs and what counts as drift ({@code invoice_check:}).
 *
 * @param hourUtc the hour (UTC) after which the day before is checked, giving vendors' reports time to settle
 * @param tolerance a capture rate outside {@code 1 ± tolerance} is drift: an event and an alert
 */
public record InvoiceSettings(int hourUtc, double tolerance) {
    public static final InvoiceSettings DEFAULTS = new InvoiceSettings(2, 0.02);

    public InvoiceSettings {
        if (hourUtc < 0 || hourUtc > 23) {
            throw new IllegalArgumentException("hour_utc must be 0..23, was " + hourUtc);
        }
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance must be in [0, 1), was " + tolerance);
        }
    }
}
