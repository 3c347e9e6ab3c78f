package io.idem.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.AuditEvent;
import io.idem.server.auth.ServerSecret;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The sign-in throttle's limits, backoff, reset and bounds, on a manual clock. */
class ConsoleThrottleTest {
    private static final InetAddress HOME = InetAddress.ofLiteral("198.51.100.7");
    private final ManualClock clock = new ManualClock();
    private final SignInThrottle throttle = new SignInThrottle(clock, ServerSecret.of("test-secret-0123456789abcdef"));

    /** A wrong key with a prefix of its own (the first 12 characters differ for each i). */
    private static String guess(int i) {
        return "idem_" + String.format("%07d", i) + "_0123456789abcdefghijklmn";
    }

    private SignInAdmission fail(InetAddress from, String key) {
        return throttle.admit(from, key);
    }

    private static InetAddress address(int i) {
        return InetAddress.ofLiteral("203.0.113." + (i % 250) + "");
    }

    private SignInAdmission.Refused failUntilRefused(InetAddress from) {
        for (int i = 0; i < 1000; i++) {
            if (fail(from, guess(i)) instanceof SignInAdmission.Refused refused) {
                return refused;
            }
        }
        throw new AssertionError("never refused");
    }

    @Test
    void theAttemptAfterTenInAWindowIsRefusedForAMinuteAndStartsOneEvent() {
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            assertThat(fail(HOME, guess(i))).isInstanceOf(SignInAdmission.Admitted.class);
        }
        var first = (SignInAdmission.Refused) fail(HOME, guess(99));
        assertThat(first.by()).isEqualTo(SignInAdmission.Scope.ADDRESS);
        assertThat(first.retryAfterSeconds()).isEqualTo(60);
        assertThat(first.started()).hasSize(1);

        clock.advance(Duration.ofSeconds(45));
        var later = (SignInAdmission.Refused) fail(HOME, "idem_the_right_key_would_not_be_checked");
        assertThat(later.retryAfterSeconds()).isEqualTo(15);
        assertThat(later.started()).isEmpty();
    }

    @Test
    void theEventNamesTheAddressAndHoldsNoPartOfTheKey() {
        String key = "idem_Secr3tPart_of_a_key_0123456789";
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            fail(HOME, key);
        }
        AuditEvent event = ((SignInAdmission.Refused) fail(HOME, key)).started().getFirst();
        assertThat(event.type()).isEqualTo("console:signin_throttled");
        assertThat(event.actor()).isEqualTo("198.51.100.7");
        assertThat(event.detail())
                .containsEntry("throttled_by", "address")
                .containsEntry("retry_after_seconds", "60")
                .containsEntry("prefix_kind", "idem");
        assertThat(event.detail().get("prefix_hmac")).hasSize(16);
        assertThat(event.detail().toString()).doesNotContain("Secr3t", "idem_S", key.substring(5, 12));
    }

    @Test
    void blocksDoubleWhileTheFailuresGoOnUpToAnHour() {
        List<Long> waits = new ArrayList<>();
        for (int block = 0; block < 8; block++) {
            var refused = failUntilRefused(HOME);
            waits.add(refused.retryAfterSeconds());
            clock.advance(Duration.ofSeconds(refused.retryAfterSeconds()));
        }
        assertThat(waits).containsExactly(60L, 120L, 240L, 480L, 960L, 1920L, 3600L, 3600L);
    }

    @Test
    void aQuietWindowAfterABlockForgivesIt() {
        clock.advance(Duration.ofSeconds(failUntilRefused(HOME).retryAfterSeconds()));
        clock.advance(SignInThrottle.PER_ADDRESS.window());
        assertThat(failUntilRefused(HOME).retryAfterSeconds()).isEqualTo(60);
    }

    @Test
    void attemptsSpreadOverWindowsAreNeverRefused() {
        for (int window = 0; window < 10; window++) {
            for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
                assertThat(fail(HOME, guess(i))).isInstanceOf(SignInAdmission.Admitted.class);
            }
            clock.advance(SignInThrottle.PER_ADDRESS.window());
        }
    }

    @Test
    void aSuccessfulSignInClearsItsAddressesCount() {
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts() - 1; i++) {
            fail(HOME, guess(i));
        }
        assertThat(fail(HOME, "idem_right_key_0123456789abcdefghijk")).isInstanceOf(SignInAdmission.Admitted.class);
        throttle.succeeded(HOME, "idem_right_key_0123456789abcdefghijk");
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            assertThat(fail(HOME, guess(i))).isInstanceOf(SignInAdmission.Admitted.class);
        }
    }

    @Test
    void oneKeyGuessedFromManyAddressesIsThrottledByItsPrefix() {
        String prefix = "idem_Ab3dE7g";
        for (int i = 0; i < SignInThrottle.PER_KEY_PREFIX.attempts(); i++) {
            assertThat(fail(address(i), prefix + "guess" + i)).isInstanceOf(SignInAdmission.Admitted.class);
        }
        var refused = (SignInAdmission.Refused) fail(address(500), prefix + "another_guess");
        assertThat(refused.by()).isEqualTo(SignInAdmission.Scope.KEY_PREFIX);
        assertThat(refused.started()).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo(address(500).getHostAddress());
            assertThat(e.detail()).containsEntry("throttled_by", "key_prefix");
            assertThat(e.detail().toString()).doesNotContain("Ab3dE7g");
        });
        assertThat(fail(address(501), "idem_Zz9otherprefix")).isInstanceOf(SignInAdmission.Admitted.class);
    }

    @Test
    void theRightKeyTakesItsOwnAttemptBackFromThePrefix() {
        String key = "idem_Ab3dE7g_the_real_key_0123456789";
        for (int i = 0; i < 5 * SignInThrottle.PER_KEY_PREFIX.attempts(); i++) {
            assertThat(fail(address(i), key)).isInstanceOf(SignInAdmission.Admitted.class);
            throttle.succeeded(address(i), key);
        }
    }

    @Test
    void anIpv6ClientCountsByItsSlash64() {
        for (int i = 0; i < SignInThrottle.PER_ADDRESS.attempts(); i++) {
            fail(InetAddress.ofLiteral("2001:db8:1:2::" + Integer.toHexString(i + 1)), guess(i));
        }
        assertThat(fail(InetAddress.ofLiteral("2001:db8:1:2:ffff::1"), guess(0)))
                .isInstanceOf(SignInAdmission.Refused.class);
        assertThat(fail(InetAddress.ofLiteral("2001:db8:1:3::1"), guess(0)))
                .isInstanceOf(SignInAdmission.Admitted.class);
    }

    @Test
    void theThrottleRemembersABoundedNumberOfAddressesAndPrefixes() {
        for (int i = 0; i < 3 * SignInThrottle.TRACKED; i++) {
            fail(InetAddress.ofLiteral("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255)), guess(i));
        }
        assertThat(throttle.tracked()).isEqualTo(2 * SignInThrottle.TRACKED);
    }

    @Test
    void concurrentAttemptsFromOneAddressAdmitExactlyTheLimitAndStartOneEvent() throws Exception {
        var admitted = new java.util.concurrent.atomic.AtomicInteger();
        var events = new ConcurrentLinkedQueue<AuditEvent>();
        var go = new CountDownLatch(1);
        try (var pool = Executors.newFixedThreadPool(16)) {
            for (int i = 0; i < 200; i++) {
                int n = i;
                pool.submit(() -> {
                    go.await();
                    switch (fail(HOME, guess(n))) {
                        case SignInAdmission.Admitted a -> admitted.incrementAndGet();
                        case SignInAdmission.Refused r -> events.addAll(r.started());
                    }
                    return null;
                });
            }
            go.countDown();
        }
        assertThat(admitted).hasValue(SignInThrottle.PER_ADDRESS.attempts());
        assertThat(events).hasSize(1);
    }
}
