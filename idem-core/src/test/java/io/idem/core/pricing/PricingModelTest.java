package io.idem.core.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.chat.ChatModel;
import io.idem.core.chat.TokenUsage;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one place a price and a usage become USD: every unit, what it ignores, what it refuses. */
class PricingModelTest {
    /** A call that consumed some of every unit, so each model shows it reads only its own. */
    private static final Usage EVERYTHING = new Usage(3, new BigDecimal("4.5"), 2_000, 500, new BigDecimal("7"));

    static Stream<Arguments> prices() {
        return Stream.of(
                Arguments.of(new PricingModel.PerImage(new BigDecimal("0.04")), Usage.images(3), "0.12"),
                Arguments.of(new PricingModel.PerImage(new BigDecimal("0.04")), EVERYTHING, "0.12"),
                Arguments.of(new PricingModel.PerImage(new BigDecimal("0.04")), Usage.NONE, "0"),
                Arguments.of(
                        new PricingModel.PerOutputSecond(new BigDecimal("0.10")),
                        Usage.outputSeconds(new BigDecimal("4.5")),
                        "0.45"),
                Arguments.of(new PricingModel.PerOutputSecond(new BigDecimal("0.10")), EVERYTHING, "0.45"),
                Arguments.of(new PricingModel.PerOutputSecond(new BigDecimal("0.10")), Usage.images(3), "0"),
                Arguments.of(
                        new PricingModel.PerToken(new BigDecimal("0.15"), new BigDecimal("0.60")),
                        Usage.tokens(2_000, 500),
                        "0.000600000"),
                Arguments.of(
                        new PricingModel.PerToken(new BigDecimal("0.15"), new BigDecimal("0.60")),
                        EVERYTHING,
                        "0.0006"),
                Arguments.of(
                        new PricingModel.PerToken(new BigDecimal("1"), BigDecimal.ZERO),
                        Usage.tokens(1, 0),
                        "0.000001"),
                Arguments.of(
                        new PricingModel.PerToken(new BigDecimal("0.4"), BigDecimal.ZERO),
                        Usage.tokens(1, 0),
                        "0.000000400"),
                Arguments.of(
                        new PricingModel.PerVendorUnit("compute_second", new BigDecimal("0.0011")),
                        Usage.vendorUnits(new BigDecimal("7")),
                        "0.0077"),
                Arguments.of(
                        new PricingModel.PerVendorUnit("compute_second", new BigDecimal("0.0011")),
                        EVERYTHING,
                        "0.0077"),
                Arguments.of(
                        new PricingModel.PerVendorUnit("megapixel", new BigDecimal("0.003")), Usage.images(3), "0"));
    }

    @ParameterizedTest(name = "{0} for {1} costs {2}")
    @MethodSource("prices")
    void eachModelPricesOnlyItsOwnUnit(PricingModel model, Usage usage, String usd) {
        assertThat(model.cost(usage)).isEqualByComparingTo(usd);
    }

    @Test
    void tokenPricesKeepNineDecimalPlacesRoundedHalfUp() {
        var perToken = new PricingModel.PerToken(new BigDecimal("0.0000015"), BigDecimal.ZERO);

        assertThat(perToken.cost(Usage.tokens(1, 0))).isEqualTo("0.000000000");
        assertThat(perToken.cost(Usage.tokens(1_000, 0))).isEqualTo("0.000000002");
    }

    @Test
    void aPerImagePriceIsExactAsTheConfiguredNumberTimesTheImages() {
        assertThat(new PricingModel.PerImage(new BigDecimal("0.0038")).cost(Usage.images(4)))
                .isEqualTo("0.0152");
    }

    @Test
    void theExpectedCostOfAJobIsItsImagesAtThePerImagePrice() {
        JobSpec twoImages = spec(2);

        assertThat(new PricingModel.PerImage(new BigDecimal("0.04")).expectedCost(twoImages))
                .isEqualByComparingTo("0.08");
        assertThat(PricingModel.PerImage.FREE.expectedCost(twoImages)).isEqualByComparingTo("0");
    }

    @Test
    void unitsARequestDoesNotStateAreExpectedToCostNothingUntilReported() {
        JobSpec twoImages = spec(2);

        assertThat(new PricingModel.PerOutputSecond(BigDecimal.ONE).expectedCost(twoImages))
                .isEqualByComparingTo("0");
        assertThat(new PricingModel.PerToken(BigDecimal.ONE, BigDecimal.ONE).expectedCost(twoImages))
                .isEqualByComparingTo("0");
        assertThat(new PricingModel.PerVendorUnit("credit", BigDecimal.ONE).expectedCost(twoImages))
                .isEqualByComparingTo("0");
    }

    @Test
    void aChatModelCostsWhatItsPerTokenPricingSays() {
        ChatModel model = new ChatModel("m", "p", "v", new BigDecimal("0.15"), new BigDecimal("0.6"));

        assertThat(model.pricing()).isEqualTo(new PricingModel.PerToken(new BigDecimal("0.15"), new BigDecimal("0.6")));
        assertThat(model.cost(new TokenUsage(2_000, 500)))
                .isEqualTo(model.pricing().cost(Usage.tokens(2_000, 500)))
                .isEqualTo("0.000600000");
    }

    @Test
    void aNegativePriceIsRefusedWithTheValueQuoted() {
        assertThatThrownBy(() -> new PricingModel.PerImage(new BigDecimal("-0.01")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cost per image must not be negative, was -0.01");
        assertThatThrownBy(() -> new PricingModel.PerOutputSecond(new BigDecimal("-1")))
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new PricingModel.PerToken(BigDecimal.ONE, new BigDecimal("-2")))
                .hasMessageContaining("output price")
                .hasMessageContaining("-2");
        assertThatThrownBy(() -> new PricingModel.PerVendorUnit("credit", new BigDecimal("-3")))
                .hasMessage("cost per credit must not be negative, was -3");
        assertThatThrownBy(() -> new PricingModel.PerVendorUnit(" ", BigDecimal.ONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeUsageIsRefused() {
        assertThatThrownBy(() -> Usage.images(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Usage.tokens(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Usage.outputSeconds(new BigDecimal("-0.5")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static JobSpec spec(int n) {
        return new JobSpec(
                new JobSpec.Generation("a lighthouse", null, JobKind.IMAGE, "1024x1024", n),
                new JobSpec.Route("standard", List.of("p"), false),
                3,
                Map.of(),
                "{}");
    }
}
