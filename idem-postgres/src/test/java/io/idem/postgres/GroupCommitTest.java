package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The group-commit batcher: nothing taken is lost, commits are few, a failed commit is retried. */
class GroupCommitTest {
    private static final GroupCommit.Settings FAST =
            new GroupCommit.Settings(100, Duration.ofMillis(2), 1_000, Duration.ofSeconds(10));

    /** A store that keeps every committed record and the size of every commit. */
    private static final class Recorded implements GroupCommit.BatchWrite<Integer> {
        final List<Integer> records = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> commits = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void write(List<Integer> batch) {
            records.addAll(batch);
            commits.add(batch.size());
        }
    }

    @Test
    void recordsFromManyThreadsAreEachCommittedOnceInFewerCommits() throws Exception {
        Recorded store = new Recorded();
        try (GroupCommit<Integer> batches = new GroupCommit<>("test audit", FAST, store)) {
            var writers = IntStream.range(0, 8)
                    .mapToObj(t -> CompletableFuture.runAsync(() -> {
                        for (int i = 0; i < 2_500; i++) {
                            batches.add(t * 10_000 + i);
                        }
                    }))
                    .toList();
            writers.forEach(CompletableFuture::join);
            assertThat(batches.awaitWritten(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(store.records).hasSize(20_000).doesNotHaveDuplicates();
        assertThat(store.commits)
                .hasSizeLessThan(20_000)
                .allSatisfy(size -> assertThat(size).isBetween(1, 100));
    }

    @Test
    void aFailedCommitIsRetriedUntilItLands() throws Exception {
        Recorded store = new Recorded();
        AtomicInteger failures = new AtomicInteger(2);
        GroupCommit.BatchWrite<Integer> flaky = batch -> {
            if (failures.getAndDecrement() > 0) {
                throw new IllegalStateException("database unreachable");
            }
            store.write(batch);
        };
        try (GroupCommit<Integer> batches = new GroupCommit<>("test audit", FAST, flaky)) {
            batches.add(1);
            batches.add(2);
            assertThat(batches.awaitWritten(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(store.records).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void closeReturnsOnlyWhenEverythingQueuedIsCommitted() {
        Recorded store = new Recorded();
        CountDownLatch firstCommit = new CountDownLatch(1);
        GroupCommit.BatchWrite<Integer> slow = batch -> {
            firstCommit.countDown();
            sleep(Duration.ofMillis(20));
            store.write(batch);
        };
        GroupCommit<Integer> batches = new GroupCommit<>("test audit", FAST, slow);
        for (int i = 0; i < 900; i++) {
            batches.add(i);
        }
        batches.close();
        assertThat(firstCommit.getCount()).isZero();
        assertThat(store.records).hasSize(900);
    }

    @Test
    void aRecordTakenAfterCloseIsWrittenAtOnce() {
        Recorded store = new Recorded();
        GroupCommit<Integer> batches = new GroupCommit<>("test audit", FAST, store);
        batches.close();
        batches.add(7);
        assertThat(store.records).containsExactly(7);
    }

    @Test
    void settingsQuoteTheBadValue() {
        assertThatThrownBy(() -> new GroupCommit.Settings(0, Duration.ZERO, 10, Duration.ZERO))
                .hasMessageContaining("maxBatch 0");
        assertThatThrownBy(() -> new GroupCommit.Settings(10, Duration.ofMillis(-1), 10, Duration.ZERO))
                .hasMessageContaining("PT-0.001S");
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
