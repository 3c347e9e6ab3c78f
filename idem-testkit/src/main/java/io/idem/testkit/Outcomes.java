package io.idem.testkit;

import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.math.BigDecimal;
import java.util.List;

/** One of each outcome class (DESIGN §3), with plausible vendor details. */
public final class Outcomes {
    private Outcomes() {}

    /** A delivered image, billed 0.04 USD, vendor request id {@code gen_1}. */
    public static Outcome.Confirmed confirmed() {
        var media =
                new GenerationResult.Media("<svg/>".getBytes(java.nio.charset.StandardCharsets.UTF_8), "image/svg+xml");
        return new Outcome.Confirmed(new GenerationResult(List.of(media)), 200, "gen_1", new BigDecimal("0.04"));
    }

    /** A delivered clip spooled to {@code file} (which the caller has written), billed 0.40 USD. */
    public static Outcome.Confirmed confirmedClip(java.nio.file.Path file) {
        var media = GenerationResult.Media.spooled(file, "video/mp4");
        return new Outcome.Confirmed(new GenerationResult(List.of(media)), 200, "gen_2", new BigDecimal("0.40"));
    }

    /** Refused at once with a 503: nothing billed, safe to fail over. */
    public static Outcome.Unavailable unavailable() {
        return new Outcome.Unavailable("http_503", "busy", 503, null);
    }

    /** A 429 that says when to come back ({@code Retry-After}): nothing billed, the provider closed that long. */
    public static Outcome.Unavailable rateLimited(java.time.Duration retryAfter) {
        return new Outcome.Unavailable("rate_limited", "too many requests", 429, null)
                .withRetryAfter(java.util.Optional.of(retryAfter));
    }

    public static Outcome.Rejected rejected(RejectionKind kind) {
        return new Outcome.Rejected(kind, kind.wire() + "_refused", "refused by the vendor", 400, null);
    }

    /** The request left and no answer came back: it may have been billed. */
    public static Outcome.Unconfirmed unconfirmed() {
        return new Outcome.Unconfirmed("read_timeout", "no answer", 0, null);
    }

    public static Outcome.AdapterFault adapterFault(boolean mayHaveSent) {
        return new Outcome.AdapterFault("NullPointerException", mayHaveSent);
    }
}
