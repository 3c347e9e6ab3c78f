package io.idem.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.idem.core.spi.ApiKeys;
import io.idem.postgres.PgApiKeys;
import io.idem.postgres.TestDatabases;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link KeyService}'s cache of key look-ups, over the real key store. */
class KeyServiceTest {

    /** The real store, counting its look-ups; while {@link #hold} is on, each look-up waits for a permit. */
    private static final class CountedKeys implements ApiKeys {
        final ApiKeys store = new PgApiKeys(TestDatabases.fresh());
        final AtomicInteger lookups = new AtomicInteger();
        final Semaphore permits = new Semaphore(0);
        volatile boolean hold;

        @Override
        public Optional<ApiKey> findActive(byte[] secretHash) {
            Optional<ApiKey> found = store.findActive(secretHash);
            lookups.incrementAndGet();
            if (hold) {
                permits.acquireUninterruptibly();
            }
            return found;
        }

        @Override
        public ApiKey insert(UUID id, String prefix, byte[] secretHash, String owner, Role role, Instant now) {
            return store.insert(id, prefix, secretHash, owner, role, now);
        }

        @Override
        public Optional<ApiKey> insertFirstAdmin(UUID id, String prefix, byte[] secretHash, Instant now) {
            return store.insertFirstAdmin(id, prefix, secretHash, now);
        }

        @Override
        public boolean insertAdminIfAbsent(UUID id, String prefix, byte[] secretHash, Instant now) {
            return store.insertAdminIfAbsent(id, prefix, secretHash, now);
        }

        @Override
        public int countAdmins() {
            return store.countAdmins();
        }

        @Override
        public List<ApiKey> list() {
            return store.list();
        }

        @Override
        public boolean revoke(UUID id, Instant now) {
            return store.revoke(id, now);
        }

        @Override
        public Optional<ApiKey> update(UUID id, Attributes attributes) {
            return store.update(id, attributes);
        }
    }

    private final CountedKeys keys = new CountedKeys();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    /** Background look-ups wait here until the test runs them. */
    private final Queue<Runnable> background = new ConcurrentLinkedQueue<>();

    private final KeyService service = new KeyService(keys, Clock.systemUTC(), nanos::get, background::add);

    private void advance(long millis) {
        nanos.addAndGet(millis * 1_000_000L);
    }

    @Test
    void requestsWithOneSecretThatNeedALookupAtOnceShareOne() throws Exception {
        KeyService.Issued issued = service.issue("acme", Role.CLIENT);
        keys.hold = true;
        List<Thread> callers = new ArrayList<>();
        List<Optional<ApiKey>> answers = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 8; i++) {
            callers.add(Thread.ofPlatform().start(() -> answers.add(service.authenticate(issued.secret()))));
        }
        // every caller is parked: one inside the look-up, the others waiting for its answer
        await().until(() -> callers.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        keys.permits.release(8);
        for (Thread t : callers) {
            t.join();
        }
        assertThat(keys.lookups).hasValue(1);
        assertThat(answers)
                .hasSize(8)
                .allSatisfy(
                        a -> assertThat(a.map(ApiKey::id)).contains(issued.key().id()));
    }

    @Test
    void anEntryNearItsEndIsLookedUpAgainInTheBackgroundWhileRequestsGoOn() {
        KeyService.Issued issued = service.issue("acme", Role.CLIENT);
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(keys.lookups).hasValue(1);

        advance(3_000); // well inside the entry: no look-up
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(background).isEmpty();

        advance(1_500); // within a second of the entry's end: a look-up in the background, the request goes on
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(background).as("one look-up per secret at a time").hasSize(1);
        assertThat(keys.lookups).hasValue(1);
        background.remove().run();
        assertThat(keys.lookups).hasValue(2);

        // the new entry runs from when its look-up began (4.5 s): good until 9.5 s, past the first one's 5 s
        advance(3_000);
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(keys.lookups).hasValue(2);
        assertThat(background).isEmpty();
    }

    @Test
    void aRevocationWinsOverALookupThatBeganBeforeIt() throws Exception {
        KeyService.Issued issued = service.issue("acme", Role.CLIENT);
        keys.hold = true;
        CountDownLatch answered = new CountDownLatch(1);
        Thread caller = Thread.ofPlatform().start(() -> {
            service.authenticate(issued.secret()); // read the key while it was live
            answered.countDown();
        });
        await().until(() -> keys.lookups.get() == 1 && caller.getState() == Thread.State.WAITING);
        assertThat(service.revoke(issued.key().id())).isTrue();
        keys.hold = false;
        keys.permits.release();
        answered.await();

        assertThat(service.authenticate(issued.secret()))
                .as("the answer read before the revocation is not kept")
                .isEmpty();
        assertThat(keys.lookups).hasValue(2);
    }

    @Test
    void anExpiredEntryIsLookedUpOnTheRequestAndAnUnknownSecretIsCachedAsUnknown() {
        KeyService.Issued issued = service.issue("acme", Role.CLIENT);
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        advance(5_001);
        assertThat(service.authenticate(issued.secret()).map(ApiKey::id))
                .contains(issued.key().id());
        assertThat(keys.lookups).hasValue(2);

        assertThat(service.authenticate("idem_not_a_key_at_all_0123456789ab")).isEmpty();
        assertThat(service.authenticate("idem_not_a_key_at_all_0123456789ab")).isEmpty();
        assertThat(keys.lookups).hasValue(3);
    }
}
