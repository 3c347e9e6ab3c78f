package io.idem.core.domain;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A validated, normalized job request: what the client asked for, with defaults applied. Two
 * requests that mean the same thing have equal specs (the idempotency hash is taken over it).
 *
 * @param model the Idem model name, or {@code null} for each provider's default
 * @param candidates the providers to try, in order (resolved at intake from lane or policy)
 * @param pinned the client named exactly one provider: configuration errors fail instead of skip
 * @param simulate provider name → fault-injection mode (fake providers only)
 * @param metadataJson the client's opaque metadata as canonical JSON
 * @param skipped lane members left out at intake, with why (recorded on the job's first event)
 */
public record JobSpec(
        String prompt,
        String model,
        String kind,
        String lane,
        String size,
        int n,
        int timeoutSeconds,
        List<String> candidates,
        boolean pinned,
        Map<String, String> simulate,
        String metadataJson,
        Map<String, String> skipped) {

    public static final int MAX_PROMPT_CHARS = 4000;
    public static final int MAX_N = 4;
    public static final int MAX_TIMEOUT_SECONDS = 600;
    private static final Pattern SIZE = Pattern.compile("[1-9][0-9]{1,4}x[1-9][0-9]{1,4}");

    public JobSpec {
        Objects.requireNonNull(prompt, "prompt");
        if (prompt.isBlank() || prompt.length() > MAX_PROMPT_CHARS) {
            throw new IllegalArgumentException("prompt must be 1.." + MAX_PROMPT_CHARS + " characters");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(size, "size");
        if (!SIZE.matcher(size).matches()) {
            throw new IllegalArgumentException("size must look like 1024x1024, was '" + size + "'");
        }
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("n must be 1.." + MAX_N + ", was " + n);
        }
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException(
                    "timeout must be 1.." + MAX_TIMEOUT_SECONDS + " seconds, was " + timeoutSeconds);
        }
        candidates = List.copyOf(candidates);
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a job needs at least one candidate provider");
        }
        simulate = Map.copyOf(simulate);
        Objects.requireNonNull(metadataJson, "metadataJson");
        skipped = Map.copyOf(skipped);
    }

    /** A spec with nothing skipped (as read back from storage). */
    public JobSpec(
            String prompt,
            String model,
            String kind,
            String lane,
            String size,
            int n,
            int timeoutSeconds,
            List<String> candidates,
            boolean pinned,
            Map<String, String> simulate,
            String metadataJson) {
        this(prompt, model, kind, lane, size, n, timeoutSeconds, candidates, pinned, simulate, metadataJson, Map.of());
    }
}
