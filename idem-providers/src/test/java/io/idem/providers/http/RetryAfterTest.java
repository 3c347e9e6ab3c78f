package io.idem.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a 429's headers say about when to come back, in every form vendors send it. */
class RetryAfterTest {
    private static HttpHeaders headers(String retryAfterMs, String retryAfter, String date) {
        Map<String, List<String>> map = new java.util.HashMap<>();
        Optional.ofNullable(retryAfterMs).ifPresent(v -> map.put("retry-after-ms", List.of(v)));
        Optional.ofNullable(retryAfter).ifPresent(v -> map.put("Retry-After", List.of(v)));
        Optional.ofNullable(date).ifPresent(v -> map.put("Date", List.of(v)));
        return HttpHeaders.of(map, (name, value) -> true);
    }

    @ParameterizedTest(name = "retry-after-ms={0}, Retry-After={1}, Date={2} -> {3} ms")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "250  | 9                             | -                             | 250",
                "-    | 12                            | -                             | 12000",
                "-    | ' 3 '                         | -                             | 3000",
                "-    | Wed, 21 Oct 2026 07:28:30 GMT | Wed, 21 Oct 2026 07:28:00 GMT | 30000",
                "-    | Wed, 21 Oct 2026 07:28:30 GMT | -                             | -",
                "-    | Wed, 21 Oct 2026 07:27:00 GMT | Wed, 21 Oct 2026 07:28:00 GMT | -",
                "-    | -1                            | -                             | -",
                "-    | soon                          | -                             | -",
                "x    | 4                             | -                             | 4000",
                "-    | -                             | -                             | -",
            })
    void eachFormIsReadAndNonsenseSaysNothing(String ms, String seconds, String date, Long expectedMillis) {
        assertThat(RetryAfter.of(headers(ms, seconds, date)))
                .isEqualTo(Optional.ofNullable(expectedMillis).map(Duration::ofMillis));
    }
}
