package io.idem.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The peer every Idem figure is held against, measured in the same run on the same server: one-row
 * {@code INSERT}s, each its own commit, from {@code clients} JDBC connections (PERFORMANCE.md's
 * "physical limit for durable work").
 */
final class CommitBaseline {
    private CommitBaseline() {}

    /** Commits per second over {@code length}. */
    static double run(String url, int clients, Duration length) {
        try (Connection setup = DriverManager.getConnection(url);
                Statement st = setup.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS baseline_rows (id bigserial PRIMARY KEY, payload text NOT NULL,"
                    + " at timestamptz NOT NULL DEFAULT now())");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the baseline table", e);
        }
        AtomicLong commits = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        long[] deadline = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            threads.add(Thread.ofPlatform().name("baseline-" + i).start(() -> insertUntil(url, go, deadline, commits)));
        }
        long started = System.nanoTime();
        deadline[0] = started + length.toNanos();
        go.countDown();
        threads.forEach(CommitBaseline::join);
        return commits.get() / ((System.nanoTime() - started) / 1e9);
    }

    private static void insertUntil(String url, CountDownLatch go, long[] deadline, AtomicLong commits) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("INSERT INTO baseline_rows (payload) VALUES (?)")) {
            go.await();
            while (System.nanoTime() < deadline[0]) {
                ps.setString(1, "a lighthouse over a cloud ocean");
                ps.executeUpdate();
                commits.incrementAndGet();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("baseline insert failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
