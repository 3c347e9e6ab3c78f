package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.domain.JobKind;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.pricing.Usage;
import io.idem.core.spi.GenerationCall;
import io.idem.providers.http.VideoInput;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

/**
 * What a video prediction does differently from an image one.
 *
 * <p>Input, in the names Replicate's video models most share: {@code prompt}, {@code duration}
 * (whole seconds), {@code aspect_ratio}, {@code resolution}, and when asked for {@code fps}, {@code
 * seed}, {@code negative_prompt}, {@code start_image} (image-to-video), {@code end_image} and {@code
 * generate_audio}. Every model has its own schema (a model that does not know an input ignores it
 * or fails the prediction), so a provider declares per model what it really makes.
 *
 * <p>{@code Cancel-After} is the job's deadline, not the call's timeout: a clip still rendering when
 * the call stops waiting keeps running and reconcile collects it; past the job's deadline
 * Replicate ends it ({@code aborted}, free, if it never started).
 *
 * <p>Cost: the prediction's {@code metrics.predict_time} as vendor units (public models bill run
 * time: price a provider {@code per_vendor_unit}), and the clip's seconds ({@code duration} in the
 * prediction's input, else the run time) for a provider priced per second of output.
 */
final class ReplicateVideo {
    private ReplicateVideo() {}

    static boolean applies(GenerationCall call) {
        return call.kind() == JobKind.VIDEO;
    }

    static ObjectNode input(GenerationCall call) {
        return VideoInput.of(call, "start_image", "end_image");
    }

    /**
     * How long Replicate may keep the prediction: what is left of the job's deadline for a video
     * (never less than the call's timeout), the call's timeout otherwise.
     */
    static Duration serverDeadline(GenerationCall call, Instant now) {
        if (!applies(call)) {
            return call.timeout();
        }
        return call.deadline()
                .map(deadline -> Duration.between(now, deadline))
                .filter(left -> left.compareTo(call.timeout()) > 0)
                .orElse(call.timeout());
    }

    static boolean isVideo(GenerationResult result) {
        return result.media().stream().anyMatch(m -> m.mimeType().startsWith("video/"));
    }

    /** Whether the prediction makes a clip: its input asks for a {@code duration} (image models take none). */
    static boolean isClip(Prediction p) {
        JsonNode asked = p.input().path("duration");
        return asked.isNumber() && asked.decimalValue().signum() > 0;
    }

    /** What a delivered clip consumed, from the prediction. */
    static Usage usage(Prediction p) {
        BigDecimal ran = p.runs().predictSeconds().orElse(BigDecimal.ZERO);
        BigDecimal seconds = isClip(p) ? p.input().path("duration").decimalValue() : ran;
        return new Usage(0, seconds, 0, 0, ran);
    }
}
