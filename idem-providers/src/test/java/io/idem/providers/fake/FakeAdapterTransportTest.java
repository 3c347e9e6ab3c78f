package io.idem.providers.fake;

import static io.idem.providers.fake.VendorFixture.aCall;
import static io.idem.providers.fake.VendorFixture.refFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.spi.CancelAnswer;
import io.idem.core.spi.GenerationCall;
import io.idem.core.spi.ReconcileAnswer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The network and the credential: no vendor, no key, and many calls at once. */
class FakeAdapterTransportTest {
    private static final String SECRET = "sk-test-do-not-print-7f3a";
    private static VendorFixture fixture;

    @BeforeAll
    static void start() {
        fixture = VendorFixture.start();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void aClosedPortIsUnavailable() throws IOException {
        FakeAdapter adapter = fixture.adapterAt(closedPort());

        Outcome outcome = adapter.generate(aCall().build());

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unavailable.class, u -> {
            assertThat(u.code()).isEqualTo("connect_failed");
            assertThat(u.httpStatus()).isZero();
        });
        assertThat(outcome.billable()).isEqualTo(Billable.NO);
        assertThat(adapter.health().healthy()).isFalse();
        assertThat(adapter.reconcile(refFor(aCall().build()))).isInstanceOf(ReconcileAnswer.StillUnknown.class);
        assertThat(adapter.cancel(refFor(aCall().build()))).isInstanceOf(CancelAnswer.Unclear.class);
    }

    @Test
    void aRunningVendorIsHealthy() {
        assertThat(fixture.adapter().health().healthy()).isTrue();
    }

    @Test
    void aMissingCredentialIsRejectedWithoutSendingAnything() {
        FakeAdapter adapter = fixture.adapterWithKey("IDEM_TEST_FAKE_KEY", name -> null);
        GenerationCall call = aCall().build();

        Outcome outcome = adapter.generate(call);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
            assertThat(r.kind()).isEqualTo(RejectionKind.CONFIG);
            assertThat(r.code()).isEqualTo("missing_credential");
            assertThat(r.message()).contains("IDEM_TEST_FAKE_KEY");
        });
        // The vendor never heard of it: a key-less adapter may ask, the fake ignores keys on lookups.
        assertThat(fixture.adapter().reconcile(refFor(call))).isInstanceOf(ReconcileAnswer.NotBilled.class);
    }

    @Test
    void theCredentialIsSentButNeverAppearsInAnOutcome() {
        FakeAdapter adapter =
                fixture.adapterWithKey("IDEM_TEST_FAKE_KEY", name -> name.equals("IDEM_TEST_FAKE_KEY") ? SECRET : null);

        Outcome ok = adapter.generate(aCall().build());
        Outcome auth = adapter.generate(aCall().simulate("auth").build());
        Outcome disconnect = adapter.generate(aCall().simulate("disconnect").build());

        assertThat(ok).isInstanceOf(Outcome.Confirmed.class);
        assertThat(auth).isInstanceOf(Outcome.Rejected.class);
        assertThat(List.of(ok, auth, disconnect))
                .allSatisfy(outcome -> assertThat(outcome.toString()).doesNotContain(SECRET));
    }

    @Test
    void fiftyConcurrentCallsBillFiftyTimes() throws Exception {
        FakeAdapter adapter = fixture.adapter();
        List<GenerationCall> calls =
                IntStream.range(0, 50).mapToObj(i -> aCall().build()).toList();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Outcome>> outcomes;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            outcomes = calls.stream()
                    .map(call -> threads.submit(() -> {
                        go.await();
                        return adapter.generate(call);
                    }))
                    .toList();
            go.countDown();
        }

        for (Future<Outcome> outcome : outcomes) {
            assertThat(outcome.get()).isInstanceOf(Outcome.Confirmed.class);
        }
        Set<String> references = calls.stream().map(GenerationCall::reference).collect(Collectors.toSet());
        List<LedgerEntry> billed = fixture.vendor.ledger().stream()
                .filter(entry -> references.contains(entry.reference()))
                .toList();
        assertThat(billed).hasSize(50);
        assertThat(billed.stream().map(LedgerEntry::id).distinct()).hasSize(50);
    }

    private static URI closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }
}
