package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a vendor's own usage or cost report says about one UTC day of our account. */
public sealed interface UsageAnswer {
    /** Every charge, one per request, so each can be matched with Idem's audit. */
    record Itemized(List<Charge> charges) implements UsageAnswer {
        public Itemized {
            charges = List.copyOf(charges);
        }
    }

    /** Only the day's total (a costs API that buckets by day). */
    record Total(BigDecimal usd) implements UsageAnswer {
        public Total {
            Objects.requireNonNull(usd, "usd");
        }
    }

    /** This vendor offers no usage report (or Idem does not read it). */
    record Unsupported(String detail) implements UsageAnswer {}

    /** The report could not be read now; a later try may. */
    record Failed(String detail) implements UsageAnswer {}

    /** One charge on the vendor's side: its request id when the report names one. */
    record Charge(Optional<String> requestId, BigDecimal costUsd, Instant at) {
        public Charge {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(costUsd, "costUsd");
            Objects.requireNonNull(at, "at");
        }
    }
}
