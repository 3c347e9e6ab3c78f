package io.idem.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.AttemptListener;
import io.idem.core.spi.AttemptRef;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.HealthAnswer;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.spi.ReconcileAnswer;
import io.idem.core.text.Redactor;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The registry is the engine's last line of defence: no adapter answer reaches the engine unredacted. */
class ProviderRegistryTest {
    private static final String KEY = "vendor-key-0123456789abcdef";
    private static final AttemptRef REF = new AttemptRef("leaky", "ref-1", Optional.empty(), "m", Instant.EPOCH);

    /** An adapter that forgets to scrub: it quotes the key in every answer. */
    private static final class Leaky implements ProviderAdapter {
        @Override
        public Outcome generate(GenerationCall call) {
            return new Outcome.Rejected(RejectionKind.CONFIG, "bad_" + KEY, "your key " + KEY, 401, "req-1");
        }

        @Override
        public ReconcileAnswer reconcile(AttemptRef attempt) {
            return new ReconcileAnswer.StillUnknown("asked with " + KEY);
        }

        @Override
        public CancelAnswer cancel(AttemptRef attempt) {
            return new CancelAnswer.Unclear("Authorization: Bearer " + KEY);
        }

        @Override
        public HealthAnswer health() {
            return new HealthAnswer(false, "probe sent " + KEY);
        }
    }

    private final ProviderRegistry registry = new ProviderRegistry(
            Map.of("leaky", new ProviderRegistry.Provider(settings(), new Leaky())), Redactor.of(List.of(KEY)));

    private static ProviderSettings settings() {
        return new ProviderSettings(
                "leaky",
                "fake",
                URI.create("http://127.0.0.1:9"),
                Optional.empty(),
                "m",
                Map.of(),
                Duration.ofSeconds(1),
                BigDecimal.ZERO,
                true);
    }

    private ProviderAdapter adapter() {
        return registry.find("leaky").orElseThrow().adapter();
    }

    @Test
    void anOutcomeThatQuotesTheKeyReachesTheEngineWithoutIt() {
        Outcome outcome = adapter()
                .generate(new GenerationCall(
                        "leaky",
                        "m",
                        GenerationCall.Request.images("p", "1024x1024", 1),
                        Duration.ofSeconds(1),
                        "ref-1",
                        Optional.empty(),
                        AttemptListener.NONE));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.message()).isEqualTo("your key [redacted]");
            assertThat(r.code()).isEqualTo("bad_[redacted]");
            assertThat(r.providerRequestId()).contains("req-1");
        });
    }

    @Test
    void reconcileCancelAndHealthAnswersReachTheEngineWithoutTheKey() {
        assertThat(adapter().reconcile(REF).toString()).doesNotContain(KEY).contains("[redacted]");
        assertThat(adapter().cancel(REF).toString()).doesNotContain(KEY).contains("[redacted]");
        assertThat(adapter().health().detail()).isEqualTo("probe sent [redacted]");
    }
}
