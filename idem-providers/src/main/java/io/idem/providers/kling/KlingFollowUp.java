package io.idem.providers.kling;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * Reconciles an earlier Kling call: by the task id Kling gave us, else (the submit's answer was
 * lost) by our reference, which went out as {@code external_task_id}, under each action in turn.
 * Queries are GETs: they cannot bill. Thread-safe.
 */
final class KlingFollowUp {
    /** How long Kling keeps a task to be queried (its docs: results are cleared after 30 days). */
    static final Duration REMEMBERED = Duration.ofDays(30);

    private static final List<String> ACTIONS = List.of("text2video", "image2video");

    private final KlingApi api;
    private final KlingAdapter adapter;
    private final InstantSource clock;

    KlingFollowUp(KlingApi api, KlingAdapter adapter, InstantSource clock) {
        this.api = api;
        this.adapter = adapter;
        this.clock = clock;
    }

    ReconcileAnswer reconcile(AttemptRef attempt) {
        if (api.missingKey().isPresent()) {
            return new ReconcileAnswer.StillUnknown(
                    "cannot ask Kling: " + api.missingKey().get().reason());
        }
        if (attempt.providerRequestId().filter(id -> id.contains("/")).isPresent()) {
            String id = attempt.providerRequestId().get();
            return found(id, api.query(id, VendorCalls.LOOKUP_TIMEOUT));
        }
        for (String action : ACTIONS) {
            VendorExchange exchange = api.query(action + "/" + attempt.reference(), VendorCalls.LOOKUP_TIMEOUT);
            if (!notFound(exchange)) {
                return found(action + "/" + attempt.reference(), exchange);
            }
        }
        boolean remembered = attempt.startedAt() != null
                && attempt.startedAt().plus(REMEMBERED).isAfter(clock.instant());
        if (!remembered) {
            return new ReconcileAnswer.StillUnknown("Kling has no task under external_task_id " + attempt.reference()
                    + ", but the attempt is older than Kling keeps tasks");
        }
        return new ReconcileAnswer.NotBilled(
                "Kling has no task under external_task_id " + attempt.reference() + ": the submit never arrived");
    }

    /** Kling's answer for an id it does not know: HTTP 404, or code 1203 (no such resource). */
    private static boolean notFound(VendorExchange exchange) {
        return exchange instanceof VendorExchange.Answered answered
                && (answered.response().statusCode() == 404
                        || io.idem.providers.http.VendorJson.parse(
                                        answered.response().body())
                                .filter(root -> root.path("code").asInt(-1) == 1203)
                                .isPresent());
    }

    private ReconcileAnswer found(String asked, VendorExchange exchange) {
        Optional<KlingTask> task = KlingApi.task(exchange);
        if (task.isEmpty()) {
            return new ReconcileAnswer.StillUnknown("query of task " + asked + " gave no task ("
                    + io.idem.providers.http.JobPoller.unread(exchange).lastSeen() + ")");
        }
        String id = asked.substring(0, asked.indexOf('/')) + "/" + task.get().id();
        return switch (task.get().status()) {
            case "succeed" ->
                switch (adapter.delivered(id, task.get(), BigDecimal.ZERO)) {
                    case Outcome.Confirmed confirmed -> new ReconcileAnswer.Delivered(confirmed);
                    case Outcome other ->
                        new ReconcileAnswer.StillUnknown("Kling reports task " + id
                                + " succeeded but its clip was not fetched: " + other.errorCode());
                };
            case "failed" ->
                new ReconcileAnswer.Failed(
                        "Kling reports task " + id + " failed: "
                                + api.text().safe(task.get().message()),
                        false);
            default ->
                new ReconcileAnswer.StillUnknown(
                        "Kling reports task " + id + " " + task.get().status());
        };
    }
}
