package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the fake vendor's {@code GET /v1/usage} answer; anything malformed is a failed read, never a guess. */
final class FakeUsageReader {
    private FakeUsageReader() {}

    static UsageAnswer read(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            return new UsageAnswer.Failed("usage report answered HTTP " + response.statusCode());
        }
        Optional<JsonNode> root = VendorJson.parse(response.body());
        JsonNode data = root.map(r -> r.path("data")).orElse(null);
        if (data == null || !data.isArray()) {
            return new UsageAnswer.Failed("usage report without a data list");
        }
        List<UsageAnswer.Charge> charges = new ArrayList<>();
        for (JsonNode line : data) {
            try {
                charges.add(new UsageAnswer.Charge(
                        VendorJson.text(line, "id"),
                        new BigDecimal(line.path("cost_usd").asText()),
                        Instant.parse(line.path("billed_at").asText())));
            } catch (NumberFormatException | DateTimeParseException e) {
                return new UsageAnswer.Failed("usage report with an unreadable line");
            }
        }
        return new UsageAnswer.Itemized(charges);
    }
}
