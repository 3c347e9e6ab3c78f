package io.idem.server.console;

import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The Dashboard (operator, admin): spend per provider, fallback rate, money at risk, p95 latency
 * per provider and the review-queue depth over the last 24 hours or the last hour, drawn as inline
 * SVG on the server and kept live over the console's server-sent events.
 */
final class DashboardPage {
    /** The charts are hourly or 5-minute buckets; a few seconds is live enough, and cheap on the database. */
    private static final Duration POLL = Duration.ofSeconds(5);

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final DashboardCharts charts;
    private final LiveStreams streams;

    DashboardPage(ConsoleGate gate, ConsolePages pages, DashboardCharts charts, LiveStreams streams) {
        this.gate = gate;
        this.pages = pages;
        this.charts = charts;
        this.streams = streams;
    }

    void show(Context ctx) {
        Visitor visitor = gate.operator(ctx);
        DashboardRange range = DashboardRange.from(ctx.queryParam("range"));
        List<Views.Option> ranges = Arrays.stream(DashboardRange.values())
                .map(r -> new Views.Option(r.value(), r.label(), r == range))
                .toList();
        pages.page(
                ctx,
                "dashboard.jte",
                new DashboardViews.Page(
                        ConsolePages.frame(visitor, "Dashboard", "dashboard"),
                        ranges,
                        "/console/stream/dashboard?range=" + range.value(),
                        charts.snapshot(range).view()));
    }

    /** Pushes the charts whenever a value in them changes; operators and admins only. */
    void stream(SseClient client) {
        Visitor visitor = client.ctx().attribute(Console.VISITOR);
        DashboardRange range;
        try {
            range = DashboardRange.from(client.ctx().queryParam("range"));
        } catch (ConsoleRefusal e) {
            client.close();
            return;
        }
        if (!visitor.mayReview()) {
            client.close();
            return;
        }
        streams.run(
                client,
                "charts",
                POLL,
                () -> {
                    DashboardCharts.Snapshot now = charts.snapshot(range);
                    return new LiveStreams.Snapshot(
                            now.fingerprint(), () -> pages.render("partials/dashboardCharts.jte", now.view()), false);
                },
                () -> gate.stillValid(visitor));
    }
}
