package io.idem.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How standings combine. A standing is written {@code LEVEL@minute} ({@code O} operational, {@code G}
 * degraded, {@code D} down; {@code -} for a since before every record).
 */
class StatusRollupTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    static Standing standing(String text) {
        String[] parts = text.split("@");
        StatusLevel level = switch (parts[0]) {
            case "O" -> StatusLevel.OPERATIONAL;
            case "G" -> StatusLevel.DEGRADED;
            case "D" -> StatusLevel.DOWN;
            default -> throw new IllegalArgumentException(text);
        };
        Optional<Instant> since =
                parts[1].equals("-") ? Optional.empty() : Optional.of(T0.plusSeconds(60L * Integer.parseInt(parts[1])));
        return new Standing(level, since);
    }

    private static List<Standing> standings(String text) {
        return text.isBlank()
                ? List.of()
                : Arrays.stream(text.trim().split(" "))
                        .map(StatusRollupTest::standing)
                        .toList();
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource({
        "'', D@-",
        "O@10 O@12, O@12",
        "O@10 O@-, O@10",
        "O@- O@-, O@-",
        "D@10 D@12, D@12",
        "D@10 O@12, G@12",
        "D@12 O@10, G@12",
        "G@5 O@10, G@5",
        "D@- O@10, G@10",
        "G@- O@-, G@-",
        "D@3 G@7 O@9, G@7",
    })
    void aServiceIsOperationalWhenAllAreDownWhenNoneCanServeAndDegradedBetween(String parts, String expected) {
        assertThat(StatusRollup.service(standings(parts))).isEqualTo(standing(expected));
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource({
        "'', O@-",
        "O@10 O@12, O@12",
        "O@10 G@12, G@12",
        "G@12 O@15, G@15",
        "D@10 D@12 O@20, D@10",
        "D@- D@12, D@-",
        "D@12 G@15, D@12",
    })
    void aProviderStandsWhereItsWorstReasonPutsIt(String reasons, String expected) {
        assertThat(StatusRollup.worst(standings(reasons))).isEqualTo(standing(expected));
    }
}
