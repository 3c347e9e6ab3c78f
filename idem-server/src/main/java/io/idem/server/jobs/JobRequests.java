package io.idem.server.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import io.idem.core.engine.DeferralSettings;
import io.idem.core.routing.CandidatePlan;
import io.idem.core.routing.CandidatePlanner;
import io.idem.core.routing.Routing;
import io.idem.server.http.ApiError;
import io.idem.server.http.Json;
import io.idem.server.http.MaxCost;
import io.idem.server.outbound.OutboundUrls;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Turns a job request body into a validated {@link JobSpec}, or a precise 400. Also computes the
 * canonical request hash that idempotency compares.
 */
public final class JobRequests {
    /** Where the job's end is announced, signed (docs/operations.md#webhooks). */
    static final String CALLBACK_URL = "callback_url";

    static final Set<String> FIELDS = fields(
            "prompt",
            "model",
            "timeout",
            "deadline_seconds",
            "kind",
            "lane",
            "size",
            "n",
            "provider_policy",
            "simulate",
            "metadata",
            MaxCost.FIELD,
            CALLBACK_URL);

    private static Set<String> fields(String... core) {
        Set<String> all = new java.util.HashSet<>(List.of(core));
        all.addAll(VideoRequests.FIELDS);
        all.addAll(ImageRequests.FIELDS);
        return Set.copyOf(all);
    }

    static final List<String> KINDS =
            java.util.Arrays.stream(JobKind.values()).map(JobKind::wire).toList();
    private static final Pattern SIMULATE = Pattern.compile(
            "ok|http_503|http_429|refuse|malformed|user_error|policy|auth|timeout|disconnect|lost|ignore_expect"
                    + "|slow:[0-9]{1,6}"
                    + "|rate_limited:[0-9]{1,5}");
    private static final int DEFAULT_TIMEOUT = 60;

    private final Routing routing;
    private final CandidatePlanner planner;
    private final io.idem.core.routing.Eligibility eligibility;
    private final DeferralSettings deadlines;
    private final OutboundUrls callbacks;
    private boolean adultModerated;

    /** Who asks: the key attributes routing depends on. */
    public record Asker(java.util.Optional<String> jurisdiction, boolean adultApproved) {
        public static final Asker ANYONE = new Asker(java.util.Optional.empty(), false);
    }

    public JobRequests(Routing routing) {
        this(routing, System::getenv);
    }

    public JobRequests(Routing routing, java.util.function.Function<String, String> environment) {
        this(routing, environment, DeferralSettings.DEFAULTS);
    }

    /** {@code deadlines}: the deadline a request gets when it names none, and the longest it may name. */
    public JobRequests(
            Routing routing, java.util.function.Function<String, String> environment, DeferralSettings deadlines) {
        this(routing, environment, deadlines, new OutboundUrls(false));
    }

    /** {@code callbacks}: where a {@code callback_url} may point. */
    public JobRequests(
            Routing routing,
            java.util.function.Function<String, String> environment,
            DeferralSettings deadlines,
            OutboundUrls callbacks) {
        this.callbacks = callbacks;
        this.deadlines = deadlines;
        this.routing = routing;
        this.planner = new CandidatePlanner(routing);
        this.eligibility = new io.idem.core.routing.Eligibility(routing, environment);
    }

    /**
     * Opens the adult lanes to approved keys: a moderator checks every result of theirs before it
     * is delivered. Call once, while wiring, before any request.
     */
    public JobRequests moderatingAdultLanes() {
        this.adultModerated = true;
        return this;
    }

    public JobSpec parse(JsonNode body, Set<String> extraFields) {
        return parse(body, extraFields, Asker.ANYONE);
    }

    /** The fields a request may carry besides the core ones (the OpenAI route adds its own). */
    public JobSpec parse(JsonNode body, Set<String> extraFields, Asker asker) {
        return parse(body, extraFields, asker, List.of());
    }

    /** An edit: the request starts from {@code inputs} (its images and mask, already read and bounded). */
    public JobSpec parse(
            JsonNode body, Set<String> extraFields, Asker asker, List<io.idem.core.domain.InputImage> inputs) {
        Draft draft = draft(body, extraFields, asker, inputs);
        java.util.List<String> eligible = new java.util.ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (var check : draft.checks()) {
            if (check.eligible()) {
                eligible.add(check.provider());
            } else {
                skipped.put(check.provider(), String.join(",", check.reasons()));
            }
        }
        boolean refused = eligible.isEmpty()
                || (draft.plan().pinned() && !eligible.containsAll(draft.plan().candidates()));
        if (refused) {
            refuseUnsupported(skipped);
        }
        if (draft.plan().pinned() && !eligible.containsAll(draft.plan().candidates())) {
            throw new ApiError(
                    400,
                    "provider_unavailable",
                    "the pinned provider cannot serve this: " + skipped,
                    Map.of("skipped", skipped));
        }
        if (eligible.isEmpty()) {
            throw new ApiError(
                    400,
                    "no_eligible_provider",
                    "no provider of lane '" + draft.plan().lane() + "' can serve this: " + skipped,
                    Map.of("skipped", skipped));
        }
        return draft.spec().narrowedTo(eligible, skipped);
    }

    /**
     * When every provider left out was left out for an image parameter it does not honour, a 400
     * {@code unsupported_parameter} naming the parameter and the provider (each, when several).
     */
    private static void refuseUnsupported(Map<String, String> skipped) {
        String prefix = io.idem.core.provider.Capabilities.UNSUPPORTED_PARAMETER + ":";
        Map<String, String> unsupported = new LinkedHashMap<>();
        skipped.forEach((provider, reasons) -> java.util.Arrays.stream(reasons.split(","))
                .filter(reason -> reason.startsWith(prefix))
                .findFirst()
                .ifPresent(reason -> unsupported.put(provider, reason.substring(prefix.length()))));
        if (unsupported.isEmpty() || unsupported.size() != skipped.size()) {
            return;
        }
        var first = unsupported.entrySet().iterator().next();
        List<String> named = unsupported.entrySet().stream()
                .map(e -> "provider '" + e.getKey() + "' does not support parameter '" + e.getValue() + "'")
                .toList();
        throw new ApiError(
                400,
                io.idem.core.provider.Capabilities.UNSUPPORTED_PARAMETER,
                String.join("; ", named),
                Map.of("parameter", first.getValue(), "provider", first.getKey(), "skipped", skipped));
    }

    /** A validated request before eligibility filtering: the plan and each candidate's check. */
    public record Draft(
            JobSpec spec, CandidatePlan.Planned plan, java.util.List<io.idem.core.routing.CandidateCheck> checks) {}

    /** Validates and plans a request; {@code checks} covers every planned candidate in order. */
    public Draft draft(JsonNode body, Set<String> extraFields, Asker asker) {
        return draft(body, extraFields, asker, List.of());
    }

    private Draft draft(
            JsonNode body, Set<String> extraFields, Asker asker, List<io.idem.core.domain.InputImage> inputs) {
        JobSpec spec = validate(body, extraFields, inputs);
        if (routing.adultLanes().contains(spec.lane())) {
            if (!asker.adultApproved()) {
                throw new ApiError(
                        403, "adult_lane_not_approved", "this key is not approved for lane '" + spec.lane() + "'");
            }
            if (!adultModerated) {
                // output moderation is required for adult lanes: without a moderator they stay closed
                throw new ApiError(
                        403,
                        "adult_lane_unmoderated",
                        "lane '" + spec.lane() + "' has no output moderation configured, so it is closed");
            }
        }
        CandidatePlan.Planned plan = new CandidatePlan.Planned(spec.lane(), spec.candidates(), spec.pinned());
        var checks = eligibility.check(spec.candidates(), spec.generation(), asker.jurisdiction());
        return new Draft(spec, plan, checks);
    }

    private JobSpec validate(JsonNode body, Set<String> extraFields, List<io.idem.core.domain.InputImage> inputs) {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!FIELDS.contains(field) && !extraFields.contains(field)) {
                throw ApiError.badRequest("unknown_field", "unknown field '" + field + "'");
            }
        }
        String prompt = Json.text(body, "prompt", null);
        if (prompt == null || prompt.isBlank()) {
            throw ApiError.badRequest("missing_prompt", "prompt is required");
        }
        if (prompt.length() > JobSpec.MAX_PROMPT_CHARS) {
            throw ApiError.badRequest("prompt_too_long", "prompt is over " + JobSpec.MAX_PROMPT_CHARS + " characters");
        }
        String kindName = Json.text(body, "kind", JobKind.IMAGE.wire());
        JobKind kind = JobKind.parse(kindName)
                .orElseThrow(() -> ApiError.badRequest(
                        "invalid_kind", "kind must be one of " + KINDS + ", was '" + kindName + "'"));
        var video = VideoRequests.read(body, kind);
        var image = ImageRequests.read(body, kind).editing(inputs);
        String size =
                video.map(io.idem.core.domain.VideoParams::size).orElseGet(() -> Json.text(body, "size", "1024x1024"));
        boolean auto = video.isEmpty() && size.equals(io.idem.core.domain.ImageParams.AUTO_SIZE);
        if (!auto && !size.matches("[1-9][0-9]{1,4}x[1-9][0-9]{1,4}")) {
            throw ApiError.badRequest("invalid_size", "size must look like 1024x1024 (or be auto), was '" + size + "'");
        }
        int n = integer(body, "n", 1, 1, video.isPresent() ? 1 : JobSpec.MAX_N);
        int timeout = integer(body, "timeout", DEFAULT_TIMEOUT, 1, (int)
                deadlines.maxTimeout().toSeconds());
        int deadline = integer(
                body, "deadline_seconds", (int) deadlines.defaultDeadline().toSeconds(), 1, (int)
                        deadlines.maxDeadline().toSeconds());
        CandidatePlan.Planned planned = plan(body);
        Map<String, String> simulate = simulate(body.get("simulate"));
        JsonNode metadata = body.get("metadata");
        if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
            throw ApiError.badRequest("invalid_metadata", "metadata must be an object");
        }
        String metadataJson =
                canonical(metadata == null || metadata.isNull() ? Json.MAPPER.createObjectNode() : metadata);
        return new JobSpec(
                new JobSpec.Generation(prompt, Json.text(body, "model", null), kind, size, n, video, image),
                new JobSpec.Route(planned.lane(), planned.candidates(), planned.pinned()),
                timeout,
                deadline,
                simulate,
                metadataJson,
                MaxCost.read(body),
                callbackUrl(body));
    }

    /** {@code callback_url}: absent or null is none; anything else must be an address events may go to. */
    private java.util.Optional<String> callbackUrl(JsonNode body) {
        JsonNode node = body.get(CALLBACK_URL);
        if (node == null || node.isNull()) {
            return java.util.Optional.empty();
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("invalid_" + CALLBACK_URL, CALLBACK_URL + " must be a URL string");
        }
        return java.util.Optional.of(
                callbacks.check(CALLBACK_URL, node.textValue()).toString());
    }

    /** The candidates of a request: its lane, or its {@code provider_policy}, and its model. */
    private CandidatePlan.Planned plan(JsonNode body) {
        JsonNode policy = body.get("provider_policy");
        String primary = null;
        String backup = null;
        if (policy != null && !policy.isNull()) {
            if (!policy.isObject()) {
                throw ApiError.badRequest("invalid_provider_policy", "provider_policy must be an object");
            }
            for (Iterator<String> it = policy.fieldNames(); it.hasNext(); ) {
                String field = it.next();
                if (!field.equals("primary") && !field.equals("backup")) {
                    throw ApiError.badRequest(
                            "invalid_provider_policy", "provider_policy takes primary and backup, not '" + field + "'");
                }
            }
            primary = Json.text(policy, "primary", null);
            backup = Json.text(policy, "backup", null);
            if (primary == null) {
                throw ApiError.badRequest("invalid_provider_policy", "provider_policy needs a primary");
            }
        }
        String model = Json.text(body, "model", null);
        CandidatePlan plan = planner.plan(Json.text(body, "lane", null), primary, backup, model);
        return switch (plan) {
            case CandidatePlan.Refused refused -> throw ApiError.badRequest(refused.code(), refused.message());
            case CandidatePlan.Planned p -> p;
        };
    }

    private Map<String, String> simulate(JsonNode node) {
        Map<String, String> modes = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return modes;
        }
        if (!node.isObject()) {
            throw ApiError.badRequest("invalid_simulate", "simulate must map provider names to modes");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            var entry = it.next();
            var provider = routing.providers().get(entry.getKey());
            if (provider == null) {
                throw ApiError.badRequest(
                        "unknown_provider", "simulate names unknown provider '" + entry.getKey() + "'");
            }
            if (!provider.acceptsSimulate()) {
                throw ApiError.badRequest(
                        "simulate_not_allowed",
                        "simulate is only accepted for fake providers; '" + entry.getKey() + "' is "
                                + provider.adapter());
            }
            String mode = entry.getValue().asText("");
            if (!entry.getValue().isTextual() || !SIMULATE.matcher(mode).matches()) {
                throw ApiError.badRequest(
                        "unknown_simulate_mode", "unknown simulate mode '" + mode + "' for '" + entry.getKey() + "'");
            }
            if (mode.startsWith("slow:") && Integer.parseInt(mode.substring(5)) > 600_000) {
                throw ApiError.badRequest("unknown_simulate_mode", "slow takes at most 600000 ms");
            }
            modes.put(entry.getKey(), mode);
        }
        return modes;
    }

    /** SHA-256 over the canonical JSON of everything that defines the job. */
    public static byte[] hash(JobSpec spec) {
        Map<String, Object> canonical = new TreeMap<>();
        canonical.put("prompt", spec.prompt());
        canonical.put("model", spec.model());
        canonical.put("kind", spec.kind().wire());
        canonical.put("lane", spec.lane());
        canonical.put("size", spec.size());
        canonical.put("n", spec.n());
        canonical.put("timeout", spec.timeoutSeconds());
        canonical.put("deadline_seconds", spec.deadlineSeconds());
        canonical.put("candidates", spec.candidates());
        canonical.put("pinned", spec.pinned());
        canonical.put("simulate", new TreeMap<>(spec.simulate()));
        canonical.put("metadata", spec.metadataJson());
        // Only when set, so the hash of a request without a ceiling is what it always was.
        spec.maxCostUsd()
                .ifPresent(max ->
                        canonical.put(MaxCost.FIELD, max.stripTrailingZeros().toPlainString()));
        spec.callbackUrl().ifPresent(url -> canonical.put(CALLBACK_URL, url));
        // Only for video jobs, so an image job's hash is what it always was.
        canonical.putAll(VideoRequests.canonical(spec));
        // Only what an image job names, so a request naming none hashes as it always did.
        canonical.putAll(ImageRequests.canonical(spec));
        try {
            return MessageDigest.getInstance("SHA-256").digest(Json.CANONICAL.writeValueAsBytes(canonical));
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException("cannot hash a job request", e);
        }
    }

    private static String canonical(JsonNode node) {
        try {
            Object tree = Json.CANONICAL.treeToValue(node, Object.class);
            return new String(Json.CANONICAL.writeValueAsBytes(tree), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("invalid_metadata", "metadata is not valid JSON");
        }
    }

    static int integer(JsonNode body, String field, int fallback, int min, int max) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < min || node.asLong() > max) {
            throw ApiError.badRequest(
                    "invalid_" + field, field + " must be a whole number " + min + ".." + max + ", was " + node);
        }
        return node.asInt();
    }
}
