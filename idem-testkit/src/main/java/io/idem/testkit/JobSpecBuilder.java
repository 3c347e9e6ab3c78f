package io.idem.testkit;

import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Test data builder for job specs: a valid image job on {@code primary} then {@code backup}. */
public final class JobSpecBuilder {
    private String prompt = "A lighthouse over a cloud ocean";
    private String model;
    private JobKind kind = JobKind.IMAGE;
    private int n = 1;
    private int timeoutSeconds = 3;
    private int deadlineSeconds = JobSpec.DEFAULT_DEADLINE_SECONDS;
    private List<String> candidates = List.of("primary", "backup");
    private boolean pinned;
    private Map<String, String> simulate = Map.of();
    private Optional<BigDecimal> maxCostUsd = Optional.empty();
    private Optional<String> callbackUrl = Optional.empty();

    private JobSpecBuilder() {}

    public static JobSpecBuilder aJobSpec() {
        return new JobSpecBuilder();
    }

    public JobSpecBuilder prompt(String value) {
        prompt = value;
        return this;
    }

    public JobSpecBuilder model(String value) {
        model = value;
        return this;
    }

    public JobSpecBuilder kind(JobKind value) {
        kind = value;
        return this;
    }

    public JobSpecBuilder images(int count) {
        n = count;
        return this;
    }

    public JobSpecBuilder timeoutSeconds(int seconds) {
        timeoutSeconds = seconds;
        return this;
    }

    public JobSpecBuilder deadlineSeconds(int seconds) {
        deadlineSeconds = seconds;
        return this;
    }

    public JobSpecBuilder candidates(String... names) {
        candidates = List.of(names);
        return this;
    }

    /** Exactly this one provider, named by the client: configuration errors fail instead of skip. */
    public JobSpecBuilder pinnedTo(String provider) {
        candidates = List.of(provider);
        pinned = true;
        return this;
    }

    public JobSpecBuilder simulate(Map<String, String> modes) {
        simulate = modes;
        return this;
    }

    /** The job's own cost ceiling ({@code max_cost_usd}). */
    public JobSpecBuilder maxCost(String usd) {
        maxCostUsd = Optional.of(new BigDecimal(usd));
        return this;
    }

    /** Where the job's end is announced ({@code callback_url}). */
    public JobSpecBuilder callbackUrl(String url) {
        callbackUrl = Optional.of(url);
        return this;
    }

    public JobSpec build() {
        return new JobSpec(
                new JobSpec.Generation(prompt, model, kind, "1024x1024", n),
                new JobSpec.Route("standard", candidates, pinned),
                timeoutSeconds,
                deadlineSeconds,
                simulate,
                "{}",
                maxCostUsd,
                callbackUrl);
    }
}
