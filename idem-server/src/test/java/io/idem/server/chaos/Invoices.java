package io.idem.server.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.http.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the fake vendors' own invoices ({@code GET /ledger}) over HTTP, as an auditor would. */
final class Invoices {
    /** One billed generation on a vendor's invoice; {@code reference} is Idem's attempt id. */
    record Line(String vendor, String id, String reference, BigDecimal costUsd) {}

    private Invoices() {}

    static List<Line> read(Map<String, URI> vendors) {
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        List<Line> lines = new ArrayList<>();
        vendors.forEach((vendor, base) -> {
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(base.resolve("/ledger"))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException(vendor + " ledger answered HTTP " + response.statusCode());
                }
                for (JsonNode g : Json.MAPPER.readTree(response.body()).path("generations")) {
                    lines.add(new Line(
                            vendor,
                            g.path("id").asText(),
                            g.path("reference").asText(null),
                            new BigDecimal(g.path("cost_usd").asText("0"))));
                }
            } catch (IOException e) {
                throw new IllegalStateException("could not read the " + vendor + " ledger at " + base, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        });
        return lines;
    }
}
