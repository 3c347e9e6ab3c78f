package io.idem.providers.runware;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorText;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Classifies Runware's refusals (DESIGN §3, runware.ai/docs/platform/errors): a submit answered
 * with an error status, and a task that failed after it was accepted. The vendor's {@code code}
 * becomes the outcome's code. Thread-safe.
 */
final class RunwareErrorReader {
    /** Our configuration: the key, the account's credit, the model we name. */
    static final Set<String> CONFIG_CODES =
            Set.of("invalidApiKey", "insufficientCredits", "insufficientBalance", "invalidModel", "modelNotFound");

    private static final Set<String> CONFIG_PARAMETERS = Set.of("apiKey", "model");
    // Runware does not list its moderation codes; these are the words they are made of.
    private static final Pattern POLICY = Pattern.compile("(?i).*(nsfw|moderation|safety|content_?policy).*");
    private static final Pattern INPUT = Pattern.compile("(?i)^(invalid|missing|unsupported).*");

    private final Duration promptRefusal;

    RunwareErrorReader(Duration promptRefusal) {
        this.promptRefusal = promptRefusal;
    }

    /** A submit answered {@code status} (not a plain acceptance), with its first error if any. */
    Outcome refused(int status, Optional<RunwareError> error, String task, Duration answeredAfter, VendorText text) {
        String code = error.map(RunwareError::code).orElse("http_" + status);
        String message = text.safe(error.map(RunwareError::message).orElse("HTTP " + status));
        Optional<RejectionKind> kind = error.flatMap(RunwareErrorReader::rejection);
        if (kind.isPresent()) {
            return rejected(kind.get(), code, message, status, task);
        }
        return switch (status) {
            case 400 -> new Outcome.Rejected(RejectionKind.USER_ERROR, code, message, status, task);
            case 401, 402, 403, 404 -> Outcome.Rejected.unusable(code, message, status, task);
            case 429 -> new Outcome.Unavailable(code, message, status, task);
            // Errors in the acknowledgement itself: the task was refused before it was queued.
            case 200, 201, 202 -> new Outcome.Unavailable(code, message, status, task);
            case 503 ->
                answeredAfter.compareTo(promptRefusal) <= 0
                        ? new Outcome.Unavailable(code, message, status, task)
                        : new Outcome.Unconfirmed(
                                code, "503 only after " + answeredAfter.toMillis() + " ms: " + message, status, task);
            // 500, 502, 504 and anything unexpected: the task may be queued; reconcile asks by its UUID.
            default -> new Outcome.Unconfirmed(code, "HTTP " + status + ": " + message, status, task);
        };
    }

    /** A task Runware accepted and then reported failed. */
    Outcome failed(RunwareError error, String task, VendorText text) {
        String message = text.safe(error.message());
        Optional<RejectionKind> kind = rejection(error);
        if (kind.isPresent()) {
            return rejected(kind.get(), error.code(), message, 200, task);
        }
        // Ended without output (timeoutProvider and the like): nothing delivered, taken as not billed.
        return new Outcome.Unavailable(error.code(), "task failed at the vendor: " + message, 200, task);
    }

    /** A configuration refusal (key, credit, model) says Runware cannot serve us: unusable. */
    private static Outcome rejected(RejectionKind kind, String code, String message, int status, String task) {
        return kind == RejectionKind.CONFIG
                ? Outcome.Rejected.unusable(code, message, status, task)
                : new Outcome.Rejected(kind, code, message, status, task);
    }

    /** The rejection an error's code or parameter names, if it names one. */
    static Optional<RejectionKind> rejection(RunwareError error) {
        if (CONFIG_CODES.contains(error.code())
                || error.parameter().filter(CONFIG_PARAMETERS::contains).isPresent()) {
            return Optional.of(RejectionKind.CONFIG);
        }
        if (POLICY.matcher(error.code()).matches()) {
            return Optional.of(RejectionKind.POLICY);
        }
        if (INPUT.matcher(error.code()).matches() || error.parameter().isPresent()) {
            return Optional.of(RejectionKind.USER_ERROR);
        }
        return Optional.empty();
    }
}
