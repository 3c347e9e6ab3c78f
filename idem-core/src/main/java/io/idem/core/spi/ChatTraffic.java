package io.idem.core.spi;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * Opt-in statistics of single-turn chat traffic, from which the static tier's answers file is
 * compiled: how often each prompt (normalized as the static tier matches it) was asked per UTC
 * day, and the last answer a live model served for it.
 */
public interface ChatTraffic {
    /** One served answer to a single-turn prompt. */
    record Served(String promptKey, String prompt, String answer, String model, Instant at) {
        public Served {
            Objects.requireNonNull(promptKey, "promptKey");
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(answer, "answer");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(at, "at");
        }
    }

    /** A prompt asked {@code calls} times over the days asked about, with its latest answer. */
    record Frequent(String prompt, String answer, String model, long calls) {}

    /** Counts each of {@code served} for its day, keeping the newest answer per prompt. */
    void record(List<Served> served);

    /** The {@code top} most asked prompts from {@code from} to {@code to} (inclusive), most asked first. */
    List<Frequent> top(int top, LocalDate from, LocalDate to);

    /** Every call recorded from {@code from} to {@code to} (inclusive). */
    long calls(LocalDate from, LocalDate to);

    /** Forgets the days before {@code before}; how many rows went. */
    int purgeBefore(LocalDate before);
}
