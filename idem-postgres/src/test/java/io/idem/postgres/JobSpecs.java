package io.idem.postgres;

import io.idem.core.domain.JobSpec;
import java.util.List;
import java.util.Map;

/** Test data builder for job specs. */
public final class JobSpecs {
    private String prompt = "A lighthouse over a cloud ocean";
    private List<String> candidates = List.of("primary", "backup");
    private Map<String, String> simulate = Map.of();

    private JobSpecs() {}

    public static JobSpecs aJobSpec() {
        return new JobSpecs();
    }

    public JobSpecs prompt(String value) {
        prompt = value;
        return this;
    }

    public JobSpecs candidates(String... names) {
        candidates = List.of(names);
        return this;
    }

    public JobSpecs simulate(Map<String, String> modes) {
        simulate = modes;
        return this;
    }

    public JobSpec build() {
        return new JobSpec(prompt, null, "image", "standard", "1024x1024", 1, 3, candidates, false, simulate, "{}");
    }
}
