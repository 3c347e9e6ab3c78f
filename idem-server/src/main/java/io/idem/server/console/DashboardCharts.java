package io.idem.server.console;

import io.idem.core.spi.DashboardReads;
import io.idem.core.spi.DashboardReads.Fallbacks;
import io.idem.core.spi.DashboardReads.Window;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Reads the dashboard's series for a window and words them as charts: spend per provider, fallback
 * rate, money at risk, p95 latency per provider and the review-queue depth, with headline figures.
 * Providers appear in configuration order, then any other the audit names. Thread-safe.
 */
final class DashboardCharts {
    private static final DateTimeFormatter HH_MM =
            DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    /** What each chart counts, in full: shown under it. */
    private static final Map<String, String> NOTES = Map.of(
            "spend",
            "Calls marked billed, at the cost the audit holds (the vendor's stated cost, else the configured"
                    + " price), in the bucket the call started in. Calls of unknown billing are under Money at risk.",
            "fallbacks",
            "Of the jobs (by when they were created) and chat calls that made a provider call, those that needed"
                    + " more than one attempt. A provider skipped for an open breaker or a spent budget made no call;"
                    + " an operator's retry is not a fallback.",
            "at-risk",
            "At each bucket's end (now, for the current one): the expected cost of every job call that had started"
                    + " and whose billing was not known yet (in flight, unconfirmed, or settled later by reconcile, an"
                    + " operator or a cancel), and of every chat call of unknown billing.",
            "latency",
            "Job and chat calls by when they started; a streamed chat call counts its time to the first token.",
            "review",
            "Jobs parked in manual_review at each bucket's end (now, for the current one).");

    private final DashboardReads reads;
    private final List<String> providers;
    private final InstantSource clock;

    DashboardCharts(DashboardReads reads, List<String> providers, InstantSource clock) {
        this.reads = reads;
        this.providers = List.copyOf(providers);
        this.clock = clock;
    }

    /** What the page shows now, and a fingerprint that changes only when a value does. */
    record Snapshot(String fingerprint, DashboardViews.Charts view) {}

    /** The series as read, one read per chart. */
    record Data(
            Window window,
            List<DashboardReads.ProviderSpend> spend,
            List<Fallbacks> fallbacks,
            List<BigDecimal> atRisk,
            List<DashboardReads.ProviderLatency> latency,
            List<Long> depth) {}

    Snapshot snapshot(DashboardRange range) {
        Window window = range.window(clock.instant());
        Data data = new Data(
                window,
                reads.spend(window),
                reads.fallbacks(window),
                reads.moneyAtRisk(window),
                reads.latency(window),
                reads.reviewDepth(window));
        String fingerprint =
                window.start() + "|" + data.spend() + data.fallbacks() + data.atRisk() + data.latency() + data.depth();
        return new Snapshot(fingerprint, view(range, data));
    }

    DashboardViews.Charts view(DashboardRange range, Data data) {
        List<Chart.Bucket> buckets = buckets(data.window());
        String per = "per " + range.bucketWords();
        List<Chart> charts = List.of(
                spendChart(range, data, buckets, per),
                fallbackChart(data, buckets, per),
                atRiskChart(data, buckets),
                latencyChart(data, buckets, per),
                depthChart(data, buckets));
        return new DashboardViews.Charts(
                range.label() + " (UTC), " + per,
                CLOCK.format(data.window().now()),
                headline(data),
                charts.stream().map(c -> chartView(c, NOTES.get(c.id()))).toList());
    }

    private Chart spendChart(DashboardRange range, Data data, List<Chart.Bucket> buckets, String per) {
        Map<String, List<BigDecimal>> byProvider = perProvider(
                data.spend(),
                DashboardReads.ProviderSpend::provider,
                s -> s.bucket(),
                s -> s.billedUsd(),
                buckets.size());
        byProvider.values().forEach(values -> values.replaceAll(v -> v == null ? BigDecimal.ZERO : v));
        List<Chart.Series> series = series(byProvider);
        String totals = String.join(
                ", ",
                series.stream()
                        .map(s -> s.name() + " " + Chart.Unit.USD.format(sum(s.values())))
                        .toList());
        return new Chart(
                "spend",
                "Spend per provider, " + per,
                "Billed spend in US dollars per provider for each " + range.bucketWords() + " of the window. "
                        + (totals.isEmpty() ? "Nothing billed." : "In total: " + totals + "."),
                Chart.Kind.BARS,
                Chart.Unit.USD,
                buckets,
                series);
    }

    private Chart fallbackChart(Data data, List<Chart.Bucket> buckets, String per) {
        List<BigDecimal> jobs = nulls(buckets.size());
        List<BigDecimal> chat = nulls(buckets.size());
        for (Fallbacks f : data.fallbacks()) {
            if (f.bucket() < 0 || f.bucket() >= buckets.size()) {
                continue;
            }
            jobs.set(f.bucket(), share(f.jobsFellBack(), f.jobs()));
            chat.set(f.bucket(), share(f.chatFellBack(), f.chatCalls()));
        }
        return new Chart(
                "fallbacks",
                "Fallback rate, " + per,
                "The share of jobs and of chat calls that needed more than one provider attempt, in percent."
                        + " In the window: jobs " + rate(data, true) + ", chat calls " + rate(data, false) + ".",
                Chart.Kind.LINE,
                Chart.Unit.PERCENT,
                buckets,
                List.of(new Chart.Series("jobs", jobs), new Chart.Series("chat calls", chat)));
    }

    private static Chart atRiskChart(Data data, List<Chart.Bucket> buckets) {
        return new Chart(
                "at-risk",
                "Money at risk",
                "The expected cost of calls whose billing was unknown at the end of each bucket, in US dollars."
                        + " Now: " + Chart.Unit.USD.format(data.atRisk().getLast()) + ".",
                Chart.Kind.LINE,
                Chart.Unit.USD,
                buckets,
                List.of(new Chart.Series("money at risk", data.atRisk())));
    }

    private Chart latencyChart(Data data, List<Chart.Bucket> buckets, String per) {
        Map<String, List<BigDecimal>> byProvider = perProvider(
                data.latency(),
                DashboardReads.ProviderLatency::provider,
                l -> l.bucket(),
                l -> BigDecimal.valueOf(l.p95Ms()),
                buckets.size());
        return new Chart(
                "latency",
                "p95 latency per provider, " + per,
                "The 95th percentile latency of each provider's calls that started in each bucket; no point where"
                        + " it made no call.",
                Chart.Kind.LINE,
                Chart.Unit.MILLIS,
                buckets,
                series(byProvider));
    }

    private static Chart depthChart(Data data, List<Chart.Bucket> buckets) {
        List<BigDecimal> depth = data.depth().stream().map(BigDecimal::valueOf).toList();
        return new Chart(
                "review",
                "Review-queue depth",
                "How many jobs waited in the review queue at the end of each bucket. Now: "
                        + data.depth().getLast() + ".",
                Chart.Kind.LINE,
                Chart.Unit.COUNT,
                buckets,
                List.of(new Chart.Series("jobs in review", depth)));
    }

    private static List<DashboardViews.Figure> headline(Data data) {
        BigDecimal billed = data.spend().stream()
                .map(DashboardReads.ProviderSpend::billedUsd)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        long calls = data.fallbacks().stream()
                .mapToLong(f -> f.jobs() + f.chatCalls())
                .sum();
        long fell = data.fallbacks().stream()
                .mapToLong(f -> f.jobsFellBack() + f.chatFellBack())
                .sum();
        return List.of(
                new DashboardViews.Figure(
                        "at-risk-now",
                        "Money at risk now",
                        Chart.Unit.USD.format(data.atRisk().getLast())),
                new DashboardViews.Figure(
                        "in-review-now",
                        "In the review queue now",
                        Long.toString(data.depth().getLast())),
                new DashboardViews.Figure("billed", "Billed in the window", Chart.Unit.USD.format(billed)),
                new DashboardViews.Figure(
                        "fallback-rate",
                        "Fallback rate in the window",
                        calls == 0 ? "—" : Chart.Unit.PERCENT.format(share(fell, calls))));
    }

    private static String rate(Data data, boolean jobs) {
        long calls = data.fallbacks().stream()
                .mapToLong(f -> jobs ? f.jobs() : f.chatCalls())
                .sum();
        long fell = data.fallbacks().stream()
                .mapToLong(f -> jobs ? f.jobsFellBack() : f.chatFellBack())
                .sum();
        return calls == 0 ? "none" : Chart.Unit.PERCENT.format(share(fell, calls)) + " of " + calls;
    }

    /** The values of each provider per bucket: configured providers first, then any other the reads name. */
    private <T> Map<String, List<BigDecimal>> perProvider(
            List<T> rows,
            Function<T, String> provider,
            Function<T, Integer> bucket,
            Function<T, BigDecimal> value,
            int buckets) {
        Set<String> names = new LinkedHashSet<>(providers);
        rows.forEach(row -> names.add(provider.apply(row)));
        Map<String, List<BigDecimal>> out = new LinkedHashMap<>();
        names.forEach(name -> out.put(name, nulls(buckets)));
        rows.stream()
                .filter(row -> bucket.apply(row) >= 0 && bucket.apply(row) < buckets)
                .forEach(row -> out.get(provider.apply(row)).set(bucket.apply(row), value.apply(row)));
        return out;
    }

    private static List<Chart.Series> series(Map<String, List<BigDecimal>> byName) {
        List<Chart.Series> out = new ArrayList<>();
        byName.forEach((name, values) -> out.add(new Chart.Series(name, values)));
        return out;
    }

    private static List<Chart.Bucket> buckets(Window window) {
        return IntStream.range(0, window.buckets())
                .mapToObj(i -> new Chart.Bucket(
                        HH_MM.format(window.startOf(i)), window.startOf(i).toString()))
                .toList();
    }

    /** A chart as the page shows it: the SVG, what it counts, and a table of its values in words. */
    static DashboardViews.ChartView chartView(Chart chart, String note) {
        List<DashboardViews.Row> rows = new ArrayList<>();
        for (int b = 0; b < chart.buckets().size(); b++) {
            int bucket = b;
            rows.add(new DashboardViews.Row(
                    chart.buckets().get(b).label(),
                    chart.series().stream()
                            .map(s -> s.values().get(bucket))
                            .map(v -> v == null ? "—" : chart.unit().format(v))
                            .toList()));
        }
        return new DashboardViews.ChartView(
                chart.id(),
                chart.title(),
                SvgChart.render(chart),
                note,
                chart.series().stream().map(Chart.Series::name).toList(),
                rows);
    }

    private static BigDecimal share(long part, long whole) {
        return whole == 0
                ? null
                : BigDecimal.valueOf(part).multiply(HUNDRED).divide(BigDecimal.valueOf(whole), 1, RoundingMode.HALF_UP);
    }

    private static BigDecimal sum(List<BigDecimal> values) {
        return values.stream().filter(v -> v != null).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private static List<BigDecimal> nulls(int size) {
        return new ArrayList<>(Collections.nCopies(size, null));
    }
}
