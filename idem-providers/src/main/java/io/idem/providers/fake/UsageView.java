package io.idem.providers.fake;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code GET /v1/usage?date=YYYY-MM-DD}: the fake vendor's invoice for one UTC day, one line per
 * charge (generations and chat completions), as vendors' usage reports list them.
 */
record UsageView(
        String date,
        List<Line> data,
        @JsonProperty("total_usd") String totalUsd) {

    record Line(
            String id,
            String kind,
            @JsonProperty("cost_usd") String costUsd,
            @JsonProperty("billed_at") String billedAt) {}

    static UsageView of(LocalDate day, List<LedgerEntry> generations, List<ChatLedgerEntry> chats) {
        List<Line> lines = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO;
        for (LedgerEntry entry : generations) {
            if (on(day, entry.billedAt())) {
                lines.add(new Line(
                        entry.id(),
                        "image",
                        entry.costUsd().toPlainString(),
                        entry.billedAt().toString()));
                total = total.add(entry.costUsd());
            }
        }
        for (ChatLedgerEntry entry : chats) {
            if (on(day, entry.billedAt())) {
                lines.add(new Line(
                        entry.id(),
                        "chat",
                        entry.costUsd().toPlainString(),
                        entry.billedAt().toString()));
                total = total.add(entry.costUsd());
            }
        }
        lines.sort(Comparator.comparing(Line::billedAt));
        return new UsageView(day.toString(), lines, total.toPlainString());
    }

    private static boolean on(LocalDate day, Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC).equals(day);
    }
}
