package io.idem.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import io.idem.server.assets.AssetLinks;
import io.idem.server.http.Json;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Turns jobs, attempts and events into the worded {@link Views} the templates show. */
final class JobViews {
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    /** Each trace entry's title on the job page; a new event type must be given one here. */
    static String title(JobEventType type) {
        return switch (type) {
            case CREATED -> "Accepted";
            case CLAIMED -> "Claimed by a worker";
            case FAILED_OVER -> "Failed over to the next provider";
            case CANDIDATE_SKIPPED -> "Provider skipped";
            case SUCCEEDED -> "Succeeded";
            case FAILED -> "Failed";
            case MANUAL_REVIEW -> "Parked for review";
            case RECONCILED -> "Reconciled with the provider";
            case RESOLVED -> "Operator decision";
            case REVIEW_EXPIRED -> "Reconcile window expired";
            case REQUEUED -> "Back in the queue";
            case DEFERRED -> "Waiting for a provider to reopen";
            case CANCELED -> "Canceled";
            case OUTPUT_MODERATED -> "Output moderation verdict";
        };
    }

    private final AssetLinks links;

    JobViews(AssetLinks links) {
        this.links = links;
    }

    /** A job without its timeline (lists and the review queue). */
    Views.JobView summary(Job job) {
        return view(job, List.of());
    }

    Views.JobView view(Job job, List<JobEvent> events) {
        String path = job.attempts().stream().map(Attempt::provider).collect(Collectors.joining(" → "));
        List<Views.ImageView> images = job.result()
                .map(r -> r.assets().stream()
                        .map(a -> new Views.ImageView(
                                links.path(a.id()),
                                "Result from " + r.provider() + " for the prompt: "
                                        + job.spec().prompt(),
                                a.mimeType()))
                        .toList())
                .orElse(List.of());
        return new Views.JobView(
                job.id().toString(),
                job.id().toString().substring(0, 8),
                new Views.StateView(
                        job.state().wire(),
                        stateLabel(job.state()),
                        stateIcon(job.state()),
                        job.state().isTerminal(),
                        job.state() == JobState.MANUAL_REVIEW),
                new Views.RequestView(
                        job.owner(),
                        job.spec().lane(),
                        job.spec().prompt(),
                        job.spec().model(),
                        String.join(" → ", job.spec().candidates())),
                run(job, path),
                images,
                job.attempts().stream().map(JobViews::attempt).toList(),
                events.stream().map(JobViews::event).toList());
    }

    private static Views.RunView run(Job job, String path) {
        return new Views.RunView(
                path.isEmpty() ? null : path,
                job.providerCalls(),
                DATE_TIME.format(job.createdAt()),
                DATE_TIME.format(job.updatedAt()),
                job.error().map(e -> e.message() + " (" + e.code() + ")").orElse(null),
                job.review().map(r -> reason(r.reason())).orElse(null),
                job.review().map(r -> DATE_TIME.format(r.since())).orElse(null));
    }

    static String stateLabel(JobState state) {
        return switch (state) {
            case QUEUED -> "queued";
            case RUNNING -> "running";
            case SUCCEEDED -> "succeeded";
            case FAILED -> "failed";
            case MANUAL_REVIEW -> "manual review";
            case CANCELED -> "canceled";
        };
    }

    /** A shape beside the word, so that no state is told by colour alone. */
    static String stateIcon(JobState state) {
        return switch (state) {
            case QUEUED -> "◷";
            case RUNNING -> "▶";
            case SUCCEEDED -> "✓";
            case FAILED -> "✕";
            case MANUAL_REVIEW -> "⚠";
            case CANCELED -> "⊘";
        };
    }

    static String reason(String reason) {
        return switch (reason) {
            case "unconfirmed" -> "unconfirmed: the provider may have billed, and we do not know";
            case "worker_lost" -> "worker lost mid-call: the provider may have billed";
            case "reconcile_expired" -> "reconcile window expired: an operator must decide";
            default -> reason;
        };
    }

    static String age(Instant since, Instant now) {
        Duration age = Duration.between(since, now);
        if (age.isNegative() || age.toSeconds() < 60) {
            return Math.max(0, age.toSeconds()) + " s";
        }
        if (age.toMinutes() < 120) {
            return age.toMinutes() + " min";
        }
        return age.toHours() + " h";
    }

    private static Views.AttemptView attempt(Attempt a) {
        String status = a.status().wire();
        String icon = switch (a.status()) {
            case SUCCEEDED -> "✓ ";
            case FAILED -> "✕ ";
            case UNCONFIRMED -> "? ";
            case ABANDONED -> "⊘ ";
            case SENDING, SUBMITTED -> "… ";
        };
        return new Views.AttemptView(
                a.provider(),
                a.model(),
                a.round(),
                status,
                icon + status,
                new Views.AnswerView(
                        a.errorClass().orElse("—"),
                        a.httpStatus() == 0 ? "—" : Integer.toString(a.httpStatus()),
                        a.providerRequestId().orElse("—"),
                        a.latencyMs().map(ms -> ms + " ms").orElse("—")),
                a.billable().wire(),
                "$" + a.costUsd().stripTrailingZeros().toPlainString());
    }

    private static Views.EventView event(JobEvent e) {
        List<Views.Detail> details = new ArrayList<>();
        String note = null;
        JsonNode detail = parse(e.detailJson());
        for (Iterator<Map.Entry<String, JsonNode>> it = detail.fields(); it.hasNext(); ) {
            var field = it.next();
            String value = text(field.getValue());
            if (value.isBlank() || value.equals("{}")) {
                continue;
            }
            if (field.getKey().equals("note")) {
                note = value;
            } else {
                details.add(new Views.Detail(field.getKey().replace('_', ' '), value));
            }
        }
        String transition = e.fromState().isPresent() || e.toState().isPresent()
                ? e.fromState().map(JobViews::stateLabel).orElse("new") + " → "
                        + e.toState().map(JobViews::stateLabel).orElse("—")
                : null;
        return new Views.EventView(
                CLOCK.format(e.at()),
                title(e.type()),
                e.type().wire(),
                transition,
                e.actor(),
                details,
                note,
                e.type() == JobEventType.RESOLVED);
    }

    static String text(JsonNode value) {
        if (value.isValueNode()) {
            return value.asText();
        }
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(text(item)));
            return String.join(", ", items);
        }
        return value.toString();
    }

    static JsonNode parse(String json) {
        try {
            JsonNode node = Json.MAPPER.readTree(json == null ? "{}" : json);
            return node != null && node.isObject() ? node : Json.MAPPER.createObjectNode();
        } catch (IOException e) {
            return Json.MAPPER.createObjectNode();
        }
    }
}
