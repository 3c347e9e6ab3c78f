package io.idem.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synchronous group commit: many callers' small transactions run in one database transaction and
 * share its commit, and each caller returns only once that commit is durable, with its own result.
 * Under load the next batch gathers while the current one commits, so a batch costs one commit
 * (one WAL flush) for as many callers as arrived meanwhile; at rest a caller waits for nothing but
 * its own statements.
 *
 * <p>A work that throws makes its batch roll back; then every work of that batch runs again alone,
 * in its own transaction, so one caller's error never becomes another's and never changes what is
 * written: all of a work lands or none of it does, exactly as in {@link Database#inTransaction}. A
 * failed commit fails every caller of the batch, as a failed commit of their own would.
 *
 * <p>Works must not commit, roll back or change the connection's settings, and must not rely on not
 * seeing the changes of works before them in the batch (each names its own rows: a job's lease,
 * an attempt id). Thread-safe.
 */
final class SharedCommits implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SharedCommits.class);

    /** One caller's work, its result once it ran in the batch, and the caller's wait. */
    private static final class Pending<T> {
        final Database.SqlWork<T> work;
        final CompletableFuture<T> done = new CompletableFuture<>();
        private T result;

        Pending(Database.SqlWork<T> work) {
            this.work = work;
        }

        void run(Connection connection) throws SQLException {
            result = work.run(connection);
        }

        /** The batch committed: the caller gets what its work returned. */
        void committed() {
            done.complete(result);
        }

        void failed(RuntimeException e) {
            done.completeExceptionally(e);
        }
    }

    private final Database db;
    private final DataSource pool;
    private final int maxBatch;
    private final LinkedBlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong works = new AtomicLong();
    private volatile boolean closing;

    /** Starts {@code writers} writer threads, each committing up to {@code maxBatch} works at once. */
    SharedCommits(Database db, int writers, int maxBatch) {
        if (writers < 1 || maxBatch < 1) {
            throw new IllegalArgumentException("need writers >= 1 and maxBatch >= 1, was " + writers + ", " + maxBatch);
        }
        this.db = db;
        this.pool = db.dataSource();
        this.maxBatch = maxBatch;
        for (int i = 0; i < writers; i++) {
            this.writers.add(
                    Thread.ofPlatform().daemon().name("idem-shared-commit-" + i).start(this::run));
        }
    }

    /**
     * Runs {@code work} in a transaction it may share with others, and returns its result once that
     * transaction is committed. Throws {@link UnableToQueryException} when the database refused it.
     */
    <T> T run(Database.SqlWork<T> work) {
        if (closing) {
            return db.inTransaction(work);
        }
        Pending<T> pending = new Pending<>(work);
        queue.add(pending);
        try {
            return pending.done.join(); // a commit takes milliseconds; the caller's interrupt stays set
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    /** Transactions committed so far, and the works they carried (for benchmarks and tests). */
    long commits() {
        return commits.get();
    }

    long works() {
        return works.get();
    }

    private void run() {
        List<Pending<?>> batch = new ArrayList<>(maxBatch);
        while (!closing || !queue.isEmpty()) {
            try {
                Pending<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                commit(batch);
            } catch (InterruptedException e) {
                closing = true;
            } catch (RuntimeException e) {
                batch.forEach(p -> p.failed(e));
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending<?>> batch) {
        boolean worksRan = false;
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                for (Pending<?> pending : batch) {
                    pending.run(connection);
                }
                worksRan = true;
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException | RuntimeException e) {
            if (!worksRan && batch.size() > 1) {
                // one work failed before the commit, and the rollback undid all: each runs again alone
                batch.forEach(this::alone);
                return;
            }
            RuntimeException failure =
                    e instanceof RuntimeException r ? r : new UnableToQueryException((SQLException) e);
            batch.forEach(p -> p.failed(failure));
            return;
        }
        commits.incrementAndGet();
        works.addAndGet(batch.size());
        batch.forEach(Pending::committed);
    }

    /** Runs one work in a transaction of its own and completes its caller. */
    private <T> void alone(Pending<T> pending) {
        try {
            pending.done.complete(db.inTransaction(pending.work));
        } catch (RuntimeException e) {
            pending.failed(e);
        }
    }

    @Override
    public void close() {
        closing = true;
        for (Thread writer : writers) {
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        for (Pending<?> left = queue.poll(); left != null; left = queue.poll()) {
            log.warn("running a shared-commit work alone at shutdown");
            alone(left);
        }
    }
}
