package io.idem.embedded;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A job to run, with the fields of {@code POST /v1/jobs}; what is not set takes the same default as
 * there (kind {@code image}, size {@code 1024x1024}, {@code n} 1, the default lane, a 60 s call
 * timeout). Idem validates it on {@link Idem#submit} exactly as the HTTP API validates a body, and
 * two requests that mean the same are the same request for idempotency. Build one with {@link
 * #builder(String)}. Immutable and thread-safe.
 */
public final class JobRequest {
    private final Map<String, Object> fields;

    private JobRequest(Map<String, Object> fields) {
        this.fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A request for {@code prompt} with everything else at its default. */
    public static JobRequest of(String prompt) {
        return builder(prompt).build();
    }

    /** A builder for a request for {@code prompt}. */
    public static Builder builder(String prompt) {
        return new Builder(prompt);
    }

    /**
     * The request's fields by their HTTP API names ({@code prompt}, {@code model}, {@code
     * provider_policy}, …), only those that were set.
     */
    public Map<String, Object> fields() {
        return fields;
    }

    public String prompt() {
        return (String) fields.get("prompt");
    }

    public Optional<String> model() {
        return Optional.ofNullable((String) fields.get("model"));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JobRequest that && fields.equals(that.fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "JobRequest" + fields.keySet();
    }

    /**
     * Sets a request's fields; each may be set once (a second set is refused, so two parts of a
     * program cannot silently disagree). Not thread-safe: one builder per request.
     */
    public static final class Builder {
        private final Map<String, Object> fields = new LinkedHashMap<>();

        private Builder(String prompt) {
            fields.put("prompt", Objects.requireNonNull(prompt, "prompt"));
        }

        private Builder set(String field, Object value) {
            Objects.requireNonNull(value, field);
            if (fields.putIfAbsent(field, value) != null) {
                throw new IllegalStateException(field + " was already set to " + fields.get(field));
            }
            return this;
        }

        /** The Idem model name (default: each provider's own default model). */
        public Builder model(String model) {
            return set("model", model);
        }

        /** {@code image} (the default) or {@code video}. */
        public Builder kind(String kind) {
            return set("kind", kind);
        }

        /** The lane whose candidates serve the job (default: the configured default lane). */
        public Builder lane(String lane) {
            return set("lane", lane);
        }

        /** Like {@code 1024x1024}. */
        public Builder size(String size) {
            return set("size", size);
        }

        /** How many results, 1..4. */
        public Builder n(int n) {
            return set("n", n);
        }

        /** The longest one provider call may take, 1..600 seconds. */
        public Builder timeoutSeconds(int seconds) {
            return set("timeout", seconds);
        }

        /** How long after acceptance the whole job may still make calls. */
        public Builder deadlineSeconds(int seconds) {
            return set("deadline_seconds", seconds);
        }

        /** Instead of a lane: this provider first, then {@code backup} (null: none). */
        public Builder providers(String primary, String backup) {
            Map<String, String> policy = new LinkedHashMap<>();
            policy.put("primary", Objects.requireNonNull(primary, "primary"));
            if (backup != null) {
                policy.put("backup", backup);
            }
            return set("provider_policy", policy);
        }

        /** Fault injection by provider name ({@code ok}, {@code http_503}, {@code timeout}, …): fake providers only. */
        public Builder simulate(Map<String, String> modes) {
            return set("simulate", Map.copyOf(modes));
        }

        /** The caller's own metadata, kept with the job (values JSON-representable: strings, numbers, maps, lists). */
        public Builder metadata(Map<String, ?> metadata) {
            return set("metadata", Map.copyOf(metadata));
        }

        /** Candidates whose expected cost would take the job's total past this are skipped. */
        public Builder maxCostUsd(BigDecimal max) {
            return set("max_cost_usd", max);
        }

        /** Where the job's end is announced, signed (as {@code callback_url}). */
        public Builder callbackUrl(String url) {
            return set("callback_url", url);
        }

        public JobRequest build() {
            return new JobRequest(fields);
        }
    }
}
