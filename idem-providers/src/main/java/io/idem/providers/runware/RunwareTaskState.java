package io.idem.providers.runware;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.util.List;
import java.util.Optional;

/**
 * What Runware says about one of our tasks when asked with {@code getResponse}: each generation is
 * {@code processing}, {@code success} or {@code error} (runware.ai/docs/platform/task-polling).
 */
sealed interface RunwareTaskState {

    /** Every generation succeeded; the items carry the images. */
    record Succeeded(List<JsonNode> items) implements RunwareTaskState {
        public Succeeded {
            items = List.copyOf(items);
        }
    }

    /** The task ran and failed. */
    record Failed(RunwareError error) implements RunwareTaskState {}

    /** Still running, or not started yet. */
    record Running(String detail) implements RunwareTaskState {}

    /** Runware says it has no task under this UUID. */
    record NotFound(String detail) implements RunwareTaskState {}

    /** No usable answer: the lookup failed or was refused. Proves nothing. */
    record Unknown(String detail) implements RunwareTaskState {}

    /** Whether the task has ended, failed or with all {@code expected} images in hand. */
    default boolean isFinal(int expected) {
        return switch (this) {
            case Succeeded succeeded -> succeeded.items().size() >= expected;
            case Failed failed -> true;
            case Running running -> false;
            case NotFound notFound -> false;
            case Unknown unknown -> false;
        };
    }

    /** This state, with a success that lacks some of the {@code expected} images still running. */
    default RunwareTaskState awaiting(int expected) {
        if (this instanceof Succeeded succeeded && succeeded.items().size() < expected) {
            return new Running(succeeded.items().size() + " of " + expected + " images ready");
        }
        return this;
    }

    static RunwareTaskState of(int status, Optional<RunwareReply> reply, String task) {
        if (reply.isEmpty()) {
            return new Unknown("lookup answered HTTP " + status + " with an unreadable body");
        }
        List<JsonNode> items = reply.get().itemsOf(task);
        if (!items.isEmpty()) {
            return fromItems(items);
        }
        List<RunwareError> errors = reply.get().errors();
        Optional<RunwareError> failure =
                errors.stream().filter(e -> e.isFailureOf(task)).findFirst();
        if (failure.isPresent()) {
            return new Failed(failure.get());
        }
        Optional<RunwareError> notFound =
                errors.stream().filter(e -> e.saysNotFound(task)).findFirst();
        if (notFound.isPresent()) {
            return new NotFound(notFound.get().code() + ": " + notFound.get().message());
        }
        if (status != 200 || !errors.isEmpty()) {
            String code = reply.get().firstError().map(RunwareError::code).orElse("no error code");
            return new Unknown("lookup answered HTTP " + status + " (" + code + ")");
        }
        // An empty answer is not a "not found": the task may be queued and not yet visible.
        return new Running("no status for the task yet");
    }

    private static RunwareTaskState fromItems(List<JsonNode> items) {
        for (JsonNode item : items) {
            if ("error".equals(status(item))) {
                return new Failed(RunwareError.ofItem(item));
            }
        }
        for (JsonNode item : items) {
            if (!"success".equals(status(item))) {
                return new Running("task " + status(item));
            }
        }
        return new Succeeded(items);
    }

    /** An item's status; a finished image without one (a synchronous-style answer) is a success. */
    private static String status(JsonNode item) {
        return VendorJson.text(item, "status")
                .orElseGet(() -> RunwareMedia.carriesImage(item) ? "success" : "processing");
    }
}
