package io.idem.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.spi.EventReads;
import io.idem.core.spi.EventSource;
import io.idem.server.events.EventQuery;
import io.idem.server.providers.ProviderFacts;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The Events page: the event stream of {@code GET /v1/events} for people, read with the same
 * query rules and the same store (a client key sees only its own events), filtered by type,
 * provider and job, newest first, with a link to older pages.
 */
final class EventsPage {
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final EventReads reads;
    private final ProviderFacts facts;

    EventsPage(ConsoleGate gate, ConsolePages pages, EventReads reads, ProviderFacts facts) {
        this.gate = gate;
        this.pages = pages;
        this.reads = reads;
        this.facts = facts;
    }

    void show(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        Map<String, List<String>> params = ctx.queryParamMap();
        EventQuery query = EventQuery.read(params, visitor.caller().ownerScope());
        EventReads.Page page = reads.events(query.filter(), query.after(), query.limit());
        List<Views.Option> types = new ArrayList<>();
        types.add(new Views.Option("", "All types", query.filter().types().isEmpty()));
        for (String type : EventSource.allTypes()) {
            types.add(new Views.Option(type, type, query.filter().types().contains(type)));
        }
        String provider = query.filter().provider().orElse("");
        List<Views.Option> providers = new ArrayList<>();
        providers.add(new Views.Option("", "All providers", provider.isEmpty()));
        facts.providers().keySet().forEach(name -> providers.add(new Views.Option(name, name, name.equals(provider))));
        EventsView.Filters filters = new EventsView.Filters(
                types, providers, query.filter().jobId().map(Object::toString).orElse(null));
        pages.page(
                ctx,
                "events.jte",
                new EventsView(
                        ConsolePages.frame(visitor, "Events", "events"),
                        filters,
                        page.events().stream().map(EventsPage::row).toList(),
                        page.next()
                                .map(next -> older(params, EventQuery.encode(next)))
                                .orElse(null)));
    }

    private static EventsView.Row row(EventReads.Event e) {
        List<Views.Detail> details = new ArrayList<>();
        JsonNode data = JobViews.parse(e.dataJson());
        for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext(); ) {
            var field = it.next();
            String value = JobViews.text(field.getValue());
            if (!value.isBlank() && !value.equals("{}")) {
                details.add(new Views.Detail(field.getKey().replace('_', ' '), value));
            }
        }
        String jobId = e.jobId().map(Object::toString).orElse(null);
        return new EventsView.Row(
                e.id(),
                WHEN.format(e.at()),
                e.type(),
                jobId,
                jobId == null ? null : jobId.substring(0, 8),
                e.provider().orElse(null),
                details);
    }

    /** This page's address with the filters kept and the cursor of the next page. */
    private static String older(Map<String, List<String>> params, String cursor) {
        StringJoiner query = new StringJoiner("&", "/console/events?", "");
        params.forEach((name, values) -> {
            if (!name.equals("cursor")) {
                values.forEach(value -> query.add(encode(name) + "=" + encode(value)));
            }
        });
        query.add("cursor=" + encode(cursor));
        return query.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
