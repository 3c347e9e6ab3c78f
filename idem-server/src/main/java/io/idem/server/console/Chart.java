package io.idem.server.console;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One dashboard chart before it is drawn: what it shows, per bucket, for each series. A value of
 * {@code null} means the bucket has nothing to show (a line breaks there, no bar is drawn).
 *
 * @param id a short name, unique on the page, used for element ids and {@code data-chart}
 * @param buckets each bucket's label for the x axis ({@code 09:00}) and its start as ISO-8601
 */
record Chart(
        String id, String title, String description, Kind kind, Unit unit, List<Bucket> buckets, List<Series> series) {

    Chart {
        Objects.requireNonNull(id, "id");
        buckets = List.copyOf(buckets);
        series = List.copyOf(series);
        for (Series s : series) {
            if (s.values().size() != buckets.size()) {
                throw new IllegalArgumentException("series '" + s.name() + "' has "
                        + s.values().size() + " values for " + buckets.size() + " buckets");
            }
        }
    }

    /** How the series are drawn: lines with a point per value, or bars grouped per bucket. */
    enum Kind {
        LINE,
        BARS
    }

    /** A bucket's label and where it starts. */
    record Bucket(String label, String start) {}

    /** One named series, a value (or {@code null}) per bucket. */
    record Series(String name, List<BigDecimal> values) {
        Series {
            Objects.requireNonNull(name, "name");
            values = Collections.unmodifiableList(new ArrayList<>(values));
        }
    }

    /** Whether any series has any value to draw. */
    boolean empty() {
        return series.stream().flatMap(s -> s.values().stream()).allMatch(Objects::isNull);
    }

    /** What the values measure, how they read, and the smallest sensible step of the y axis. */
    enum Unit {
        USD(new BigDecimal("0.01")),
        PERCENT(new BigDecimal("25")),
        MILLIS(new BigDecimal("10")),
        COUNT(BigDecimal.ONE);

        private final BigDecimal minStep;

        Unit(BigDecimal minStep) {
            this.minStep = minStep;
        }

        BigDecimal minStep() {
            return minStep;
        }

        /** The value as people read it: {@code $0.04}, {@code 40 %}, {@code 120 ms}, {@code 1.5 s}, {@code 3}. */
        String format(BigDecimal value) {
            return switch (this) {
                case USD -> "$" + dollars(value);
                case PERCENT -> plain(value.setScale(1, RoundingMode.HALF_UP)) + " %";
                case MILLIS ->
                    value.compareTo(BigDecimal.valueOf(1000)) >= 0
                            ? plain(value.movePointLeft(3).setScale(1, RoundingMode.HALF_UP)) + " s"
                            : plain(value.setScale(0, RoundingMode.HALF_UP)) + " ms";
                case COUNT -> plain(value.setScale(0, RoundingMode.HALF_UP));
            };
        }

        /**
         * Cents always shown ({@code 0.20}); below a dollar to four places ({@code 0.0525}), below a
         * cent to six ({@code 0.000012}: a chat call's tokens).
         */
        private static String dollars(BigDecimal value) {
            BigDecimal size = value.abs();
            int places = size.compareTo(BigDecimal.ONE) >= 0 ? 2 : size.compareTo(CENT) >= 0 ? 4 : 6;
            BigDecimal rounded = value.setScale(places, RoundingMode.HALF_UP).stripTrailingZeros();
            if (rounded.signum() == 0) {
                return "0";
            }
            return (rounded.scale() < 2 ? rounded.setScale(2) : rounded).toPlainString();
        }

        private static final BigDecimal CENT = new BigDecimal("0.01");

        static String plain(BigDecimal value) {
            return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
        }
    }
}
