package io.idem.core.domain;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A validated, normalized job request: what the client asked for, with defaults applied. Two
 * requests that mean the same thing have equal specs (the idempotency hash is taken over it).
 *
 * @param generation what to make
 * @param route which providers may make it
 * @param timeoutSeconds the longest one call may take
 * @param deadlineSeconds how long after it is accepted the whole job may still make calls: deferrals
 *     end and every call's timeout is cut to what is left of it
 * @param simulate provider name → fault-injection mode (fake providers only)
 * @param metadataJson the client's opaque metadata as canonical JSON
 * @param maxCostUsd the request's cost ceiling ({@code max_cost_usd}): candidates whose expected cost
 *     would take the job's total past it are skipped
 * @param callbackUrl where the job's end is announced ({@code callback_url}), a validated address
 */
public record JobSpec(
        Generation generation,
        Route route,
        int timeoutSeconds,
        int deadlineSeconds,
        Map<String, String> simulate,
        String metadataJson,
        Optional<BigDecimal> maxCostUsd,
        Optional<String> callbackUrl) {

    public static final int MAX_PROMPT_CHARS = 4000;
    public static final int MAX_N = 4;
    /** No configuration may allow one call a longer timeout than a day ({@code jobs.max_timeout_seconds}). */
    public static final int MAX_TIMEOUT_SECONDS = 86_400;
    /** The longest timeout a request may name unless {@code jobs.max_timeout_seconds} says otherwise. */
    public static final int DEFAULT_MAX_TIMEOUT_SECONDS = 3_600;
    /** The deadline a job gets when nothing sets one. */
    public static final int DEFAULT_DEADLINE_SECONDS = 600;
    /** No configuration may allow a longer deadline than a week. */
    public static final int MAX_DEADLINE_SECONDS = 604_800;

    private static final Pattern SIZE = Pattern.compile("[1-9][0-9]{1,4}x[1-9][0-9]{1,4}");

    public JobSpec {
        Objects.requireNonNull(generation, "generation");
        Objects.requireNonNull(route, "route");
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException(
                    "timeout must be 1.." + MAX_TIMEOUT_SECONDS + " seconds, was " + timeoutSeconds);
        }
        if (deadlineSeconds < 1 || deadlineSeconds > MAX_DEADLINE_SECONDS) {
            throw new IllegalArgumentException(
                    "deadline must be 1.." + MAX_DEADLINE_SECONDS + " seconds, was " + deadlineSeconds);
        }
        simulate = Map.copyOf(simulate);
        Objects.requireNonNull(metadataJson, "metadataJson");
        Objects.requireNonNull(maxCostUsd, "maxCostUsd");
        Objects.requireNonNull(callbackUrl, "callbackUrl");
    }

    /** A spec without a callback. */
    public JobSpec(
            Generation generation,
            Route route,
            int timeoutSeconds,
            int deadlineSeconds,
            Map<String, String> simulate,
            String metadataJson,
            Optional<BigDecimal> maxCostUsd) {
        this(generation, route, timeoutSeconds, deadlineSeconds, simulate, metadataJson, maxCostUsd, Optional.empty());
    }

    /** A spec with the default deadline and no cost ceiling. */
    public JobSpec(
            Generation generation, Route route, int timeoutSeconds, Map<String, String> simulate, String metadataJson) {
        this(generation, route, timeoutSeconds, DEFAULT_DEADLINE_SECONDS, simulate, metadataJson, Optional.empty());
    }

    /** A spec without a cost ceiling. */
    public JobSpec(
            Generation generation,
            Route route,
            int timeoutSeconds,
            int deadlineSeconds,
            Map<String, String> simulate,
            String metadataJson) {
        this(generation, route, timeoutSeconds, deadlineSeconds, simulate, metadataJson, Optional.empty());
    }

    /** A spec with the default deadline. */
    public JobSpec(
            Generation generation,
            Route route,
            int timeoutSeconds,
            Map<String, String> simulate,
            String metadataJson,
            Optional<BigDecimal> maxCostUsd) {
        this(generation, route, timeoutSeconds, DEFAULT_DEADLINE_SECONDS, simulate, metadataJson, maxCostUsd);
    }

    /**
     * What to make.
     *
     * @param model the Idem model name, or {@code null} for each provider's default
     * @param video a video job's parameters (present exactly when {@code kind} is {@code video})
     * @param image an image job's own parameters ({@link ImageParams#NONE} for a video job); its
     *     {@code size} may then be {@code auto}
     */
    public record Generation(
            String prompt,
            String model,
            JobKind kind,
            String size,
            int n,
            Optional<VideoParams> video,
            ImageParams image) {
        public Generation {
            Objects.requireNonNull(prompt, "prompt");
            if (prompt.isBlank() || prompt.length() > MAX_PROMPT_CHARS) {
                throw new IllegalArgumentException("prompt must be 1.." + MAX_PROMPT_CHARS + " characters");
            }
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(size, "size");
            boolean autoImage = kind == JobKind.IMAGE && ImageParams.AUTO_SIZE.equals(size);
            if (!autoImage && !SIZE.matcher(size).matches()) {
                throw new IllegalArgumentException("size must look like 1024x1024, was '" + size + "'");
            }
            if (n < 1 || n > MAX_N) {
                throw new IllegalArgumentException("n must be 1.." + MAX_N + ", was " + n);
            }
            Objects.requireNonNull(video, "video");
            if (video.isPresent() != (kind == JobKind.VIDEO)) {
                throw new IllegalArgumentException("video parameters go with kind video exactly, kind was " + kind);
            }
            if (kind == JobKind.VIDEO && n != 1) {
                throw new IllegalArgumentException("a video job makes one clip, n was " + n);
            }
            Objects.requireNonNull(image, "image");
            if (kind == JobKind.VIDEO && !image.isEmpty()) {
                throw new IllegalArgumentException("image parameters go with kind image, kind was " + kind);
            }
        }

        /** A generation without image parameters. */
        public Generation(String prompt, String model, JobKind kind, String size, int n, Optional<VideoParams> video) {
            this(prompt, model, kind, size, n, video, ImageParams.NONE);
        }

        /** A generation with the default video parameters when it makes a video. */
        public Generation(String prompt, String model, JobKind kind, String size, int n) {
            this(
                    prompt,
                    model,
                    kind,
                    size,
                    n,
                    kind == JobKind.VIDEO ? Optional.of(VideoParams.DEFAULTS) : Optional.empty());
        }
    }

    /**
     * Which providers may make it.
     *
     * @param candidates the providers to try, in order (resolved at intake from lane or policy)
     * @param pinned the client named exactly one provider: configuration errors fail instead of skip
     * @param skipped lane members left out at intake, with why (recorded on the job's first event)
     */
    public record Route(String lane, List<String> candidates, boolean pinned, Map<String, String> skipped) {
        public Route {
            Objects.requireNonNull(lane, "lane");
            candidates = List.copyOf(candidates);
            if (candidates.isEmpty()) {
                throw new IllegalArgumentException("a job needs at least one candidate provider");
            }
            skipped = Map.copyOf(skipped);
        }

        /** A route with nothing skipped (as read back from storage). */
        public Route(String lane, List<String> candidates, boolean pinned) {
            this(lane, candidates, pinned, Map.of());
        }
    }

    /** The same request with its candidates narrowed to {@code eligible}, recording why the others were left out. */
    public JobSpec narrowedTo(List<String> eligible, Map<String, String> skipped) {
        return new JobSpec(
                generation,
                new Route(route.lane(), eligible, route.pinned(), skipped),
                timeoutSeconds,
                deadlineSeconds,
                simulate,
                metadataJson,
                maxCostUsd,
                callbackUrl);
    }

    public String prompt() {
        return generation.prompt();
    }

    public String model() {
        return generation.model();
    }

    public JobKind kind() {
        return generation.kind();
    }

    public String size() {
        return generation.size();
    }

    public int n() {
        return generation.n();
    }

    /** A video job's parameters; empty for an image job. */
    public Optional<VideoParams> video() {
        return generation.video();
    }

    /** An image job's own parameters ({@link ImageParams#NONE} when it names none). */
    public ImageParams image() {
        return generation.image();
    }

    public String lane() {
        return route.lane();
    }

    public List<String> candidates() {
        return route.candidates();
    }

    public boolean pinned() {
        return route.pinned();
    }

    public Map<String, String> skipped() {
        return route.skipped();
    }
}
