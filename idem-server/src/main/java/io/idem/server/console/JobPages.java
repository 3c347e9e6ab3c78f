package io.idem.server.console;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.spi.JobReads;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/** The Job trace page and the Jobs list, each with its live stream. */
final class JobPages {
    static final int LIST_LIMIT = 50;
    private static final Duration TRACE_POLL = Duration.ofMillis(400);
    private static final Duration LIST_POLL = Duration.ofSeconds(1);

    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final JobReads reads;
    private final JobViews views;
    private final LiveStreams streams;

    JobPages(ConsoleGate gate, ConsolePages pages, JobReads reads, JobViews views, LiveStreams streams) {
        this.gate = gate;
        this.pages = pages;
        this.reads = reads;
        this.views = views;
        this.streams = streams;
    }

    void trace(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        Job job = find(visitor, ctx.pathParam("id")).orElseThrow(() -> ConsoleRefusal.notFound("job"));
        Views.JobView view = views.view(job, reads.events(job.id()));
        pages.page(
                ctx,
                "trace.jte",
                new Views.TraceView(ConsolePages.frame(visitor, "Job " + view.shortId(), "jobs"), view));
    }

    /** Pushes the job's trace fragment on every change; ends once the job is finished. */
    void traceStream(SseClient client) {
        Visitor visitor = client.ctx().attribute(Console.VISITOR);
        String id = client.ctx().pathParam("id");
        streams.run(
                client,
                "trace",
                TRACE_POLL,
                () -> {
                    Job job = find(visitor, id).orElse(null);
                    if (job == null) {
                        return new LiveStreams.Snapshot("gone", () -> "", true);
                    }
                    var events = reads.events(job.id());
                    String fingerprint = fingerprint(job) + "|" + events.size();
                    return new LiveStreams.Snapshot(
                            fingerprint,
                            () -> pages.render("partials/trace.jte", views.view(job, events)),
                            job.state().isTerminal());
                },
                () -> gate.stillValid(visitor));
    }

    void list(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        JobState state = state(ctx.queryParam("state"));
        List<Views.Option> states = new ArrayList<>();
        states.add(new Views.Option("", "All states", state == null));
        for (JobState s : JobState.values()) {
            states.add(new Views.Option(s.wire(), JobViews.stateLabel(s), s == state));
        }
        String wire = state == null ? "" : state.wire();
        pages.page(
                ctx,
                "jobs.jte",
                new Views.JobsView(
                        ConsolePages.frame(visitor, "Jobs", "jobs"),
                        wire,
                        states,
                        page(visitor, state).stream().map(views::summary).toList(),
                        "/console/stream/jobs" + (state == null ? "" : "?state=" + wire)));
    }

    /** Pushes the list's rows whenever a job on the first page appears or moves. */
    void listStream(SseClient client) {
        Visitor visitor = client.ctx().attribute(Console.VISITOR);
        JobState state;
        try {
            state = state(client.ctx().queryParam("state"));
        } catch (ConsoleRefusal e) {
            client.close();
            return;
        }
        streams.run(
                client,
                "jobs",
                LIST_POLL,
                () -> {
                    List<Job> jobs = page(visitor, state);
                    String fingerprint =
                            jobs.stream().map(JobPages::fingerprint).collect(Collectors.joining(";"));
                    return new LiveStreams.Snapshot(
                            fingerprint,
                            () -> pages.render(
                                    "partials/jobRows.jte",
                                    jobs.stream().map(views::summary).toList()),
                            false);
                },
                () -> gate.stillValid(visitor));
    }

    private List<Job> page(Visitor visitor, JobState state) {
        return reads.list(visitor.caller().ownerScope(), state, null, LIST_LIMIT)
                .jobs();
    }

    private Optional<Job> find(Visitor visitor, String id) {
        try {
            return reads.find(UUID.fromString(id), visitor.caller().ownerScope());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static JobState state(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return JobState.fromWire(value);
        } catch (IllegalArgumentException e) {
            throw new ConsoleRefusal(400, "Unknown state '" + value + "'.");
        }
    }

    private static String fingerprint(Job job) {
        return job.id() + ":" + job.state().wire() + ":" + job.updatedAt() + ":"
                + job.attempts().stream().map(Attempt::status).map(Enum::name).collect(Collectors.joining(","));
    }
}
