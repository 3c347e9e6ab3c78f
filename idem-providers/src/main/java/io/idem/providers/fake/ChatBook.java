package io.idem.providers.fake;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake vendor's chat invoice: every completion it started generating, billed by its tokens at
 * {@link FakeVendorServer#CHAT_INPUT_USD_PER_1M} / {@link FakeVendorServer#CHAT_OUTPUT_USD_PER_1M}.
 * Thread-safe.
 */
final class ChatBook {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    private final InstantSource clock;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<ChatLedgerEntry> ledger = new ConcurrentLinkedQueue<>();

    ChatBook(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    String nextId() {
        return "chatcmpl-fake-" + ids.incrementAndGet();
    }

    void bill(String id, String model, long promptTokens, long completionTokens) {
        BigDecimal cost = FakeVendorServer.CHAT_INPUT_USD_PER_1M
                .multiply(BigDecimal.valueOf(promptTokens))
                .add(FakeVendorServer.CHAT_OUTPUT_USD_PER_1M.multiply(BigDecimal.valueOf(completionTokens)))
                .divide(MILLION, 9, RoundingMode.HALF_UP);
        ledger.add(new ChatLedgerEntry(id, model, promptTokens, completionTokens, cost, clock.instant()));
    }

    List<ChatLedgerEntry> ledger() {
        return new ArrayList<>(ledger);
    }

    void reset() {
        ledger.clear();
    }
}
