package io.idem.core.pricing;

import io.idem.core.domain.JobSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * How a provider bills: the one place a price and a {@link Usage} become USD. A closed set, so a new
 * unit is a compile error in {@link #cost} until it is priced. Only {@link PerImage} (configured by
 * {@code cost_per_image_usd}), {@link PerOutputSecond} ({@code cost_per_second_usd}) and their pair
 * {@link PerImageAndSecond} reach job billing, and {@link PerToken} prices chat models; {@link
 * PerVendorUnit} is a type a vendor's descriptor can name, not yet read from configuration.
 * Immutable and thread-safe.
 */
public sealed interface PricingModel {
    /** Every price is quoted in USD; token prices per million tokens. */
    BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /** A price per delivered image ({@code cost_per_image_usd}). */
    record PerImage(BigDecimal usd) implements PricingModel {
        public static final PerImage FREE = new PerImage(BigDecimal.ZERO);

        public PerImage {
            usd = price(usd, "cost per image");
        }
    }

    /** A price per second of delivered output (video, audio). */
    record PerOutputSecond(BigDecimal usd) implements PricingModel {
        public PerOutputSecond {
            usd = price(usd, "cost per second of output");
        }
    }

    /**
     * A price per image and a price per second of video, for a provider that makes both
     * ({@code cost_per_image_usd} with {@code cost_per_second_usd}).
     */
    record PerImageAndSecond(PerImage image, PerOutputSecond second) implements PricingModel {
        public PerImageAndSecond {
            Objects.requireNonNull(image, "image");
            Objects.requireNonNull(second, "second");
        }
    }

    /** Prices per million input (prompt) and output (completion) tokens. */
    record PerToken(BigDecimal inputUsdPer1M, BigDecimal outputUsdPer1M) implements PricingModel {
        public static final PerToken FREE = new PerToken(BigDecimal.ZERO, BigDecimal.ZERO);

        public PerToken {
            inputUsdPer1M = price(inputUsdPer1M, "input price per million tokens");
            outputUsdPer1M = price(outputUsdPer1M, "output price per million tokens");
        }
    }

    /**
     * A price per unit the vendor itself counts and reports (compute seconds, megapixels, credits).
     *
     * @param unit the vendor's name for the unit, for messages and the audit
     */
    record PerVendorUnit(String unit, BigDecimal usd) implements PricingModel {
        public PerVendorUnit {
            Objects.requireNonNull(unit, "unit");
            if (unit.isBlank()) {
                throw new IllegalArgumentException("a vendor unit needs a name");
            }
            usd = price(usd, "cost per " + unit);
        }
    }

    /** What {@code usage} costs under this model, in USD: only this model's own unit counts. */
    default BigDecimal cost(Usage usage) {
        Objects.requireNonNull(usage, "usage");
        return switch (this) {
            case PerImage image -> image.usd().multiply(BigDecimal.valueOf(usage.images()));
            case PerOutputSecond second -> second.usd().multiply(usage.outputSeconds());
            case PerImageAndSecond both ->
                both.image().cost(usage).add(both.second().cost(usage));
            case PerToken token ->
                token.inputUsdPer1M()
                        .multiply(BigDecimal.valueOf(usage.inputTokens()))
                        .add(token.outputUsdPer1M().multiply(BigDecimal.valueOf(usage.outputTokens())))
                        .divide(MILLION, 9, RoundingMode.HALF_UP);
            case PerVendorUnit unit -> unit.usd().multiply(usage.vendorUnits());
        };
    }

    /**
     * What a job is expected to cost before it is sent (written ahead on the attempt and charged to
     * the budget): the images it asks for, or the seconds of the clip it asks for. A unit the request
     * does not state (tokens, vendor units) counts as zero until the call reports it.
     */
    default BigDecimal expectedCost(JobSpec spec) {
        return cost(Usage.expectedBy(spec));
    }

    private static BigDecimal price(BigDecimal usd, String what) {
        Objects.requireNonNull(usd, what);
        if (usd.signum() < 0) {
            throw new IllegalArgumentException(what + " must not be negative, was " + usd.toPlainString());
        }
        return usd;
    }
}
