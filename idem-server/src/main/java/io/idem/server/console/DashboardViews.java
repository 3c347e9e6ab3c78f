package io.idem.server.console;

import java.util.List;

/**
 * The models the Dashboard page's templates render, already worded for people. Public only because
 * the generated template classes live in another package.
 */
public final class DashboardViews {
    private DashboardViews() {}

    /** The page: its frame, the windows to choose from, and where its live charts come from. */
    public record Page(Views.Frame frame, List<Views.Option> ranges, String streamUrl, Charts charts) {}

    /** What the live stream replaces: the window in words, the headline figures and the charts. */
    public record Charts(String window, String asOf, List<Figure> headline, List<ChartView> charts) {}

    /** A headline figure; {@code key} names it for {@code data-testid}. */
    public record Figure(String key, String label, String value) {}

    /**
     * One chart: its drawn SVG (escaped by {@link SvgChart}), what it counts, and its values as a
     * table, one row per bucket and a column per series.
     */
    public record ChartView(String id, String title, String svg, String note, List<String> columns, List<Row> rows) {}

    /** A bucket's values in words, one per series. */
    public record Row(String bucket, List<String> values) {}
}
