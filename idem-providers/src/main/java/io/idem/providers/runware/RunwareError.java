package io.idem.providers.runware;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of Runware's {@code {"errors": [{"code", "message", "parameter", "taskType",
 * "taskUUID"}]}} (runware.ai/docs/platform/errors). {@code parameter} is a string or, in some
 * answers, an array of them; the first is kept.
 */
record RunwareError(
        String code, String message, Optional<String> parameter, Optional<String> taskType, Optional<String> taskUuid) {

    /** Task types of the lookup itself: an error of theirs says nothing about our task. */
    private static final Set<String> LOOKUP_TASKS = Set.of("getResponse", "authentication", "ping");

    // Runware does not document its "no such task" answer; these are the names it would take.
    private static final Pattern NOT_FOUND = Pattern.compile("(?i).*(not_?found|unknown_?task|no_?such_?task).*");

    RunwareError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(taskType, "taskType");
        Objects.requireNonNull(taskUuid, "taskUuid");
    }

    static RunwareError of(JsonNode node) {
        JsonNode parameter = node.path("parameter");
        Optional<String> param =
                parameter.isArray() && !parameter.isEmpty() && parameter.get(0).isTextual()
                        ? Optional.of(parameter.get(0).asText())
                        : VendorJson.text(node, "parameter");
        return new RunwareError(
                VendorJson.text(node, "code").orElse("unknown_error"),
                VendorJson.text(node, "message").orElse("(no message)"),
                param,
                VendorJson.text(node, "taskType"),
                VendorJson.text(node, "taskUUID"));
    }

    /** An error Runware put on a result item ({@code "status": "error"}). */
    static RunwareError ofItem(JsonNode item) {
        String message = VendorJson.text(item, "message")
                .or(() -> VendorJson.text(item, "error"))
                .orElse("the task ended in status error");
        return new RunwareError(
                VendorJson.text(item, "code").orElse("task_error"),
                message,
                VendorJson.text(item, "parameter"),
                VendorJson.text(item, "taskType"),
                VendorJson.text(item, "taskUUID"));
    }

    /** Whether this error is the vendor saying it has no task under {@code task}. */
    boolean saysNotFound(String task) {
        return taskUuid.map(task::equals).orElse(true)
                && NOT_FOUND.matcher(code).matches();
    }

    /** Whether this error reports our task's own failure (not a failure of the lookup). */
    boolean isFailureOf(String task) {
        return taskUuid.filter(task::equals).isPresent()
                && taskType.filter(LOOKUP_TASKS::contains).isEmpty()
                && !saysNotFound(task);
    }
}
