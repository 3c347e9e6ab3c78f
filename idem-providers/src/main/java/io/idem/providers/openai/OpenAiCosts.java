package io.idem.providers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.spi.UsageAnswer;
import io.idem.providers.http.Credential;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * OpenAI's organization costs report ({@code GET /v1/organization/costs}, one bucket per UTC day,
 * read with an admin key) as a usage answer: the day's total in USD. It covers the whole
 * organization, so it is the provider's invoice only where the organization serves Idem alone.
 * Pages are followed up to {@link #MAX_PAGES}. Thread-safe.
 */
final class OpenAiCosts {
    static final int MAX_PAGES = 20;

    private final VendorCalls calls;
    private final String base;

    OpenAiCosts(VendorCalls calls, String base) {
        this.calls = calls;
        this.base = base;
    }

    UsageAnswer day(LocalDate day) {
        Credential key = calls.usageCredential();
        switch (key) {
            case Credential.None none -> {
                return new UsageAnswer.Unsupported(
                        "set usage_key_env to a variable holding an OpenAI admin key to read the costs report");
            }
            case Credential.Missing missing -> {
                return new UsageAnswer.Failed(missing.reason());
            }
            case Credential.Bearer bearer -> {}
        }
        long start = day.atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        long end = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        BigDecimal total = BigDecimal.ZERO;
        Optional<String> page = Optional.empty();
        for (int i = 0; i < MAX_PAGES; i++) {
            JsonNode root;
            switch (calls.ask(
                    VendorCalls.lookup(url(start, end, page), VendorCalls.HEALTH_TIMEOUT)
                            .GET(),
                    key)) {
                case VendorExchange.Failed failed -> {
                    return new UsageAnswer.Failed("costs report: " + failed.detail());
                }
                case VendorExchange.Answered answered -> {
                    if (answered.response().statusCode() != 200) {
                        return new UsageAnswer.Failed("costs report answered HTTP "
                                + answered.response().statusCode());
                    }
                    Optional<JsonNode> parsed =
                            VendorJson.parse(answered.response().body());
                    if (parsed.isEmpty() || !parsed.get().path("data").isArray()) {
                        return new UsageAnswer.Failed("costs report without a data list");
                    }
                    root = parsed.get();
                }
            }
            Optional<BigDecimal> sum = sum(root.path("data"), start);
            if (sum.isEmpty()) {
                return new UsageAnswer.Failed("costs report with an amount not in USD, or unreadable");
            }
            total = total.add(sum.get());
            page = VendorJson.text(root, "next_page");
            if (!root.path("has_more").asBoolean(false) || page.isEmpty()) {
                return new UsageAnswer.Total(total);
            }
        }
        return new UsageAnswer.Failed("costs report longer than " + MAX_PAGES + " pages");
    }

    private URI url(long start, long end, Optional<String> page) {
        String query = "start_time=" + start + "&end_time=" + end + "&bucket_width=1d&limit=1"
                + page.map(p -> "&page=" + URLEncoder.encode(p, StandardCharsets.UTF_8))
                        .orElse("");
        return URI.create(base + "/organization/costs?" + query);
    }

    /** The USD amounts of the day's bucket; empty when an amount is in another currency or unreadable. */
    private static Optional<BigDecimal> sum(JsonNode buckets, long start) {
        BigDecimal total = BigDecimal.ZERO;
        for (JsonNode bucket : buckets) {
            if (bucket.path("start_time").asLong(-1) != start) {
                continue;
            }
            for (JsonNode result : bucket.path("results")) {
                JsonNode amount = result.path("amount");
                if (!amount.path("value").isNumber()
                        || !"usd".equalsIgnoreCase(amount.path("currency").asText())) {
                    return Optional.empty();
                }
                total = total.add(amount.path("value").decimalValue());
            }
        }
        return Optional.of(total);
    }
}
