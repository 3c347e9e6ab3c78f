package io.idem.server.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.routing.Routing;
import io.idem.core.spi.JobIntake;
import io.idem.core.spi.JobReads;
import io.idem.server.http.ApiError;
import io.idem.server.jobs.JobDesk;
import io.idem.server.jobs.JobRequests;
import io.idem.server.jobs.Submissions;
import io.javalin.http.Context;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The Generate page: a job request with a failure mode per fake provider, sent exactly as a client
 * would send {@code POST /v1/jobs} (same validation, same idempotency), and "Idempotent replay",
 * which sends the last request again with the same {@code Idempotency-Key}.
 */
final class GeneratePage {
    private final ConsoleGate gate;
    private final ConsolePages pages;
    private final Routing routing;
    private final JobRequests requests;
    private final Submissions submissions;
    private final JobReads reads;
    private final JobViews views;

    GeneratePage(ConsoleGate gate, ConsolePages pages, Routing routing, JobDesk desk, JobViews views) {
        this.gate = gate;
        this.pages = pages;
        this.routing = routing;
        this.requests = desk.requests();
        this.submissions = desk.submissions();
        this.reads = desk.reads();
        this.views = views;
    }

    void show(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        ConsoleSession.LastSubmission last = visitor.session().last();
        GenerateForm form = last == null ? GenerateForm.defaults(routing) : last.form();
        Views.JobView job = last == null
                ? null
                : reads.find(last.jobId(), visitor.caller().ownerScope())
                        .map(j -> views.view(j, reads.events(j.id())))
                        .orElse(null);
        pages.page(ctx, "generate.jte", view(visitor, form, null, null, job));
    }

    void submit(Context ctx) {
        Visitor visitor = gate.visitor(ctx);
        gate.checkForm(ctx, visitor.session());
        Request request = "replay".equals(ctx.formParam("intent")) ? replayOf(visitor) : fresh(ctx);
        Sent sent;
        try {
            sent = send(visitor, request);
        } catch (ApiError e) {
            respond(ctx, visitor, request.form(), e.getMessage(), null, null);
            return;
        }
        visitor.session()
                .remember(
                        new ConsoleSession.LastSubmission(request.body(), request.key(), sent.jobId(), request.form()));
        Job job = reads.find(sent.jobId(), visitor.caller().ownerScope())
                .orElseThrow(() -> ConsoleRefusal.notFound("job"));
        respond(ctx, visitor, request.form(), null, sent.submitted(), views.view(job, reads.events(job.id())));
    }

    /** A job request as the API would receive it: body, {@code Idempotency-Key}, and the form behind it. */
    private record Request(ObjectNode body, String key, GenerateForm form) {}

    private record Sent(UUID jobId, Views.Submitted submitted) {}

    private Request fresh(Context ctx) {
        GenerateForm form = GenerateForm.from(ctx, routing);
        return new Request(form.toBody(), "console-" + UUID.randomUUID(), form);
    }

    /** The last request again, byte for byte, with the same key. */
    private static Request replayOf(Visitor visitor) {
        ConsoleSession.LastSubmission last = visitor.session().last();
        if (last == null) {
            throw new ConsoleRefusal(409, "Nothing to replay yet: generate an image first.");
        }
        return new Request(last.body(), last.idempotencyKey(), last.form());
    }

    /** Validates and submits exactly as {@code POST /v1/jobs} does; refusals are {@link ApiError}s. */
    private Sent send(Visitor visitor, Request request) {
        io.idem.server.http.StrictJson.checkText(request.body());
        JobSpec spec = requests.parse(request.body(), Set.of());
        return switch (submissions.submit(visitor.caller(), spec, request.key())) {
            case JobIntake.Accepted.Created created ->
                new Sent(
                        created.jobId(),
                        new Views.Submitted(
                                false, request.key(), "New job accepted (202). Its trace follows live below."));
            case JobIntake.Accepted.Replayed replayed ->
                new Sent(
                        replayed.jobId(),
                        new Views.Submitted(
                                true,
                                request.key(),
                                "Idempotent replay: the same request with the same Idempotency-Key returned the"
                                        + " original job (200, Idempotent-Replayed: true). Nothing was sent to any"
                                        + " provider."));
            case JobIntake.Accepted.KeyReused reused ->
                throw new ApiError(
                        409,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used with a different request.");
        };
    }

    private void respond(
            Context ctx,
            Visitor visitor,
            GenerateForm form,
            String error,
            Views.Submitted submitted,
            Views.JobView job) {
        Views.GenerateView view = view(visitor, form, error, submitted, job);
        if (ConsolePages.htmx(ctx)) {
            ConsolePages.secure(ctx);
            ctx.html(pages.render("partials/workspace.jte", view));
        } else {
            pages.page(ctx, "generate.jte", view);
        }
    }

    private Views.GenerateView view(
            Visitor visitor, GenerateForm form, String error, Views.Submitted submitted, Views.JobView job) {
        List<Views.Option> lanes = routing.lanes().keySet().stream()
                .map(lane -> new Views.Option(
                        lane,
                        lane + " (" + String.join(" → ", routing.lanes().get(lane)) + ")",
                        lane.equals(form.lane())))
                .toList();
        List<Views.SimulateChoice> simulate = GenerateForm.fakeProviders(routing).stream()
                .map(provider -> new Views.SimulateChoice(
                        provider,
                        Arrays.stream(FailureMode.values())
                                .map(mode ->
                                        new Views.Option(mode.value(), mode.label(), mode == form.modeOf(provider)))
                                .toList()))
                .toList();
        List<Views.ModeHelp> help = Arrays.stream(FailureMode.values())
                .map(mode -> new Views.ModeHelp(mode.label(), mode.effect()))
                .toList();
        return new Views.GenerateView(
                ConsolePages.frame(visitor, "Generate", "generate"),
                form.prompt(),
                lanes,
                form.timeoutSeconds(),
                simulate,
                help,
                visitor.session().last() != null,
                error,
                submitted,
                job);
    }
}
