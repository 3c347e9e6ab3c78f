package io.idem.server.console;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Chart} as inline SVG on the server: axes with labelled ticks, a legend, a line or a
 * group of bars per series, and for every value a {@code <title>} in words and its
 * {@code data-bucket} / {@code data-value}. No script and no style attribute, so the console's
 * strict Content-Security-Policy holds; colours and dashes come from the stylesheet's
 * {@code series-N} classes, and every series is also named in the legend. Every text and attribute
 * it writes is escaped. Stateless and thread-safe.
 */
final class SvgChart {
    static final int WIDTH = 640;
    static final int HEIGHT = 260;
    /** Series styles in the stylesheet; more series reuse them in turn. */
    static final int STYLES = 6;

    private static final int LEFT = 64;
    private static final int RIGHT = WIDTH - 16;
    private static final int TOP = 40;
    private static final int BOTTOM = HEIGHT - 30;
    private static final int TICKS = 4;
    private static final int MAX_X_LABELS = 8;
    private static final BigDecimal[] MANTISSAS = {
        BigDecimal.ONE, new BigDecimal("2"), new BigDecimal("2.5"), new BigDecimal("5"), BigDecimal.TEN
    };

    private SvgChart() {}

    static String render(Chart chart) {
        BigDecimal step = tickStep(chart);
        BigDecimal top = step.multiply(BigDecimal.valueOf(TICKS));
        StringBuilder svg = new StringBuilder(4096);
        String titleId = "chart-" + chart.id() + "-title";
        String descId = "chart-" + chart.id() + "-desc";
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart chart-")
                .append(chart.kind().name().toLowerCase(Locale.ROOT))
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" role=\"img\" aria-labelledby=\"")
                .append(attr(titleId + " " + descId))
                .append("\" data-chart=\"")
                .append(attr(chart.id()))
                .append("\" data-unit=\"")
                .append(chart.unit().name().toLowerCase(Locale.ROOT))
                .append("\">");
        svg.append("<title id=\"")
                .append(attr(titleId))
                .append("\">")
                .append(text(chart.title()))
                .append("</title>");
        svg.append("<desc id=\"")
                .append(attr(descId))
                .append("\">")
                .append(text(chart.description()))
                .append("</desc>");
        legend(svg, chart);
        yAxis(svg, chart.unit(), step);
        xAxis(svg, chart);
        if (chart.empty()) {
            svg.append("<text class=\"empty\" x=\"")
                    .append((LEFT + RIGHT) / 2)
                    .append("\" y=\"")
                    .append((TOP + BOTTOM) / 2)
                    .append("\" text-anchor=\"middle\">Nothing in this window yet</text>");
        }
        for (int i = 0; i < chart.series().size(); i++) {
            switch (chart.kind()) {
                case LINE -> line(svg, chart, i, top);
                case BARS -> bars(svg, chart, i, top);
            }
        }
        return svg.append("</svg>").toString();
    }

    /**
     * The y axis' tick step: the smallest of 1, 2, 2.5, 5 times a power of ten for which {@link
     * #TICKS} steps reach the largest value (a count steps by whole numbers; a percentage always
     * reaches 100 %).
     */
    static BigDecimal tickStep(Chart chart) {
        if (chart.unit() == Chart.Unit.PERCENT) {
            return Chart.Unit.PERCENT.minStep();
        }
        BigDecimal max = chart.series().stream()
                .flatMap(s -> s.values().stream())
                .filter(v -> v != null)
                .max(BigDecimal::compareTo)
                .orElse(BigDecimal.ZERO);
        BigDecimal least = chart.unit().minStep();
        if (max.compareTo(least.multiply(BigDecimal.valueOf(TICKS))) <= 0) {
            return least;
        }
        BigDecimal raw = max.divide(BigDecimal.valueOf(TICKS), 12, RoundingMode.CEILING);
        int exponent = raw.precision() - raw.scale() - 1;
        BigDecimal power = BigDecimal.ONE.scaleByPowerOfTen(exponent);
        for (BigDecimal mantissa : MANTISSAS) {
            BigDecimal candidate = mantissa.multiply(power);
            boolean whole = chart.unit() != Chart.Unit.COUNT
                    || candidate.stripTrailingZeros().scale() <= 0;
            if (whole && candidate.compareTo(raw) >= 0 && candidate.compareTo(least) >= 0) {
                return candidate.stripTrailingZeros();
            }
        }
        return BigDecimal.TEN.multiply(power);
    }

    private static void legend(StringBuilder svg, Chart chart) {
        svg.append("<g class=\"legend\">");
        int x = LEFT;
        for (int i = 0; i < chart.series().size(); i++) {
            String name = chart.series().get(i).name();
            svg.append("<g class=\"legend-item ")
                    .append(style(i))
                    .append("\" data-series=\"")
                    .append(attr(name))
                    .append("\">");
            if (chart.kind() == Chart.Kind.BARS) {
                svg.append(String.format(
                        Locale.ROOT, "<rect class=\"swatch\" x=\"%d\" y=\"10\" width=\"14\" height=\"12\"/>", x));
            } else {
                svg.append(String.format(
                        Locale.ROOT, "<line class=\"swatch\" x1=\"%d\" y1=\"16\" x2=\"%d\" y2=\"16\"/>", x, x + 18));
            }
            svg.append(String.format(Locale.ROOT, "<text class=\"legend-label\" x=\"%d\" y=\"20\">", x + 24))
                    .append(text(name))
                    .append("</text></g>");
            x += 24 + 7 * name.length() + 20;
        }
        svg.append("</g>");
    }

    private static void yAxis(StringBuilder svg, Chart.Unit unit, BigDecimal step) {
        svg.append("<g class=\"axis axis-y\">");
        for (int t = 0; t <= TICKS; t++) {
            double y = BOTTOM - (BOTTOM - TOP) * (double) t / TICKS;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
                    t == 0 ? "baseline" : "grid",
                    LEFT,
                    y,
                    RIGHT,
                    y));
            svg.append(String.format(
                            Locale.ROOT,
                            "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                            LEFT - 8,
                            y + 4))
                    .append(text(unit.format(step.multiply(BigDecimal.valueOf(t)))))
                    .append("</text>");
        }
        svg.append("</g>");
    }

    private static void xAxis(StringBuilder svg, Chart chart) {
        List<Chart.Bucket> buckets = chart.buckets();
        int every = Math.max(1, (int) Math.ceil(buckets.size() / (double) MAX_X_LABELS));
        svg.append("<g class=\"axis axis-x\">");
        for (int i = 0; i < buckets.size(); i += every) {
            svg.append(String.format(
                            Locale.ROOT,
                            "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
                            center(i, buckets.size()),
                            BOTTOM + 18))
                    .append(text(buckets.get(i).label()))
                    .append("</text>");
        }
        svg.append("</g>");
    }

    private static void line(StringBuilder svg, Chart chart, int index, BigDecimal top) {
        Chart.Series series = chart.series().get(index);
        int n = chart.buckets().size();
        StringBuilder path = new StringBuilder();
        List<String> points = new ArrayList<>();
        boolean drawing = false;
        for (int b = 0; b < n; b++) {
            BigDecimal value = series.values().get(b);
            if (value == null) {
                drawing = false;
                continue;
            }
            double x = center(b, n);
            double y = y(value, top);
            path.append(String.format(Locale.ROOT, "%s%.1f %.1f ", drawing ? "L" : "M", x, y));
            drawing = true;
            points.add(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"", x, y)
                    + data(chart, b, value) + "><title>" + text(words(chart, series, b, value)) + "</title></circle>");
        }
        open(svg, series, index);
        if (!path.isEmpty()) {
            svg.append("<path class=\"line\" d=\"")
                    .append(path.toString().strip())
                    .append("\"/>");
        }
        points.forEach(svg::append);
        svg.append("</g>");
    }

    private static void bars(StringBuilder svg, Chart chart, int index, BigDecimal top) {
        Chart.Series series = chart.series().get(index);
        int n = chart.buckets().size();
        double band = (RIGHT - LEFT) / (double) n;
        double width = band * 0.8 / chart.series().size();
        open(svg, series, index);
        for (int b = 0; b < n; b++) {
            BigDecimal value = series.values().get(b);
            if (value == null) {
                continue;
            }
            double x = LEFT + band * b + band * 0.1 + width * index;
            double y = y(value, top);
            svg.append(String.format(
                            Locale.ROOT,
                            "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
                            x,
                            y,
                            width,
                            BOTTOM - y))
                    .append(data(chart, b, value))
                    .append("><title>")
                    .append(text(words(chart, series, b, value)))
                    .append("</title></rect>");
        }
        svg.append("</g>");
    }

    private static void open(StringBuilder svg, Chart.Series series, int index) {
        svg.append("<g class=\"series ")
                .append(style(index))
                .append("\" data-series=\"")
                .append(attr(series.name()))
                .append("\">");
    }

    private static String data(Chart chart, int bucket, BigDecimal value) {
        return " data-bucket=\"" + attr(chart.buckets().get(bucket).start()) + "\" data-value=\""
                + attr(Chart.Unit.plain(value)) + "\"";
    }

    /** A value in words, for the point's tooltip and screen readers: {@code primary, 09:00: $0.04}. */
    private static String words(Chart chart, Chart.Series series, int bucket, BigDecimal value) {
        return series.name() + ", " + chart.buckets().get(bucket).label() + ": "
                + chart.unit().format(value);
    }

    private static String style(int index) {
        return "series-" + (index % STYLES);
    }

    private static double center(int bucket, int buckets) {
        double band = (RIGHT - LEFT) / (double) buckets;
        return LEFT + band * bucket + band / 2;
    }

    private static double y(BigDecimal value, BigDecimal top) {
        double share = top.signum() == 0 ? 0 : Math.min(1, Math.max(0, value.doubleValue() / top.doubleValue()));
        return BOTTOM - (BOTTOM - TOP) * share;
    }

    static String text(String raw) {
        StringBuilder out = new StringBuilder(raw.length() + 16);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c);
            }
        }
        return out.toString();
    }

    private static String attr(String raw) {
        return text(raw);
    }
}
