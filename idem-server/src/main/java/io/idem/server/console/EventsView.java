package io.idem.server.console;

import java.util.List;

/**
 * What the Events page renders: the filters as chosen, a page of the event stream, and the link to
 * the next, older page ({@code null} on the last page). Public only because the generated template
 * classes live in another package.
 */
public record EventsView(Views.Frame frame, Filters filters, List<Row> rows, String olderUrl) {

    /** The filter form: type and provider choices, and the job id typed in. */
    public record Filters(List<Views.Option> types, List<Views.Option> providers, String jobId) {}

    /** One event; {@code jobId} and {@code provider} are {@code null} when it names none. */
    public record Row(
            String id,
            String time,
            String type,
            String jobId,
            String jobShort,
            String provider,
            List<Views.Detail> details) {}
}
