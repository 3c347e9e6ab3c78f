package io.idem.core.pricing;

import io.idem.core.domain.JobSpec;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What one call consumed, in every unit a vendor bills by; a {@link PricingModel} reads the one it
 * prices. Built by the factories, which leave the other units at zero. Immutable.
 *
 * @param images delivered images
 * @param outputSeconds seconds of delivered output (video, audio)
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens
 * @param vendorUnits the units the vendor reported ({@link PricingModel.PerVendorUnit})
 */
public record Usage(int images, BigDecimal outputSeconds, long inputTokens, long outputTokens, BigDecimal vendorUnits) {
    public static final Usage NONE = new Usage(0, BigDecimal.ZERO, 0, 0, BigDecimal.ZERO);

    public Usage {
        Objects.requireNonNull(outputSeconds, "outputSeconds");
        Objects.requireNonNull(vendorUnits, "vendorUnits");
        if (images < 0
                || outputSeconds.signum() < 0
                || inputTokens < 0
                || outputTokens < 0
                || vendorUnits.signum() < 0) {
            throw new IllegalArgumentException("usage must not be negative, was " + images + " images, " + outputSeconds
                    + " s, " + inputTokens + "/" + outputTokens + " tokens, " + vendorUnits + " vendor units");
        }
    }

    public static Usage images(int images) {
        return new Usage(images, BigDecimal.ZERO, 0, 0, BigDecimal.ZERO);
    }

    public static Usage outputSeconds(BigDecimal seconds) {
        return new Usage(0, seconds, 0, 0, BigDecimal.ZERO);
    }

    public static Usage tokens(long input, long output) {
        return new Usage(0, BigDecimal.ZERO, input, output, BigDecimal.ZERO);
    }

    public static Usage vendorUnits(BigDecimal units) {
        return new Usage(0, BigDecimal.ZERO, 0, 0, units);
    }

    /** What a request states ahead of the call: the images it asks for, or the seconds of its clip. */
    public static Usage expectedBy(JobSpec spec) {
        return spec.video()
                .map(video -> outputSeconds(BigDecimal.valueOf(video.durationSeconds())))
                .orElseGet(() -> images(spec.n()));
    }
}
