package io.idem.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Synchronous group commit: many callers' small transactions run in one database transaction and
 * share its commit, and each caller returns only once that commit is durable, with its own result.
 * Under load the next batch gathers while the current one commits, so a batch costs one commit
 * (one WAL flush) for as many callers as arrived meanwhile; at rest a caller waits for nothing but
 * its own statements.
 *
 * <p>A work that throws, or waits more than a second for another transaction's row lock, makes its
 * batch roll back; then every caller of that batch runs its work again alone, in its own
 * transaction on its own thread, so one caller's error or wait never becomes another's and never
 * changes what is written: all of a work lands or none of it does, exactly as in {@link
 * Database#inTransaction}. A failed commit fails every caller of the batch, as a failed commit of
 * their own would.
 *
 * <p>Works must not commit, roll back or change the connection's settings, and must not rely on
 * seeing or not seeing the changes of other works in the batch, nor on running before or after them
 * (each names its own rows: a job's lease, an attempt id). The rows of one {@link
 * RowWork.Statement} are written by one statement. Thread-safe.
 */
final class SharedCommits implements AutoCloseable {
    /** What a caller gets instead of a result when its batch rolled back: run the work yourself. */
    private static final Object ALONE = new Object();

    /**
     * The writer's connection settings, set once on the connection it keeps while works keep coming
     * (it gives it back after a tenth of a second without any; a {@code SET LOCAL} per batch was one
     * more round trip per commit, a sixth of the accept path's JVM time). A lock timeout bounds a
     * batch's wait for another transaction's row lock (the callers then wait alone). Every work
     * names its rows by key, so the planner is told to reach them through indexes: a batch's
     * statement joins its {@code VALUES} rows to the tables, and a plan PostgreSQL kept from when a
     * table was small read all of {@code provider_attempts} for every batch of settles as the table
     * grew (the harness's drain, until statistics caught up). That prices a sequential scan, where it
     * is the only way (a trigger's look at a small table), at ten billion, far above {@code
     * jit_above_cost}: a PostgreSQL built with LLVM then compiled the job-end trigger's check for
     * about 100 ms on every settle (a drain of 15 jobs/s). So the writers run without JIT, which no
     * statement of theirs, a handful of rows each, could gain from.
     */
    private static final Map<String, String> WRITER_SETTING_VALUES = Map.of(
            "lock_timeout", "'1s'",
            "enable_seqscan", "off",
            "enable_hashjoin", "off",
            "enable_mergejoin", "off",
            "jit", "off");

    static final String WRITER_SETTINGS = WRITER_SETTING_VALUES.entrySet().stream()
            .map(setting -> "SET " + setting.getKey() + " = " + setting.getValue())
            .collect(Collectors.joining("; "));
    /** Puts a writer's connection back as the pool lent it: every setting above reset. */
    private static final String POOL_SETTINGS =
            WRITER_SETTING_VALUES.keySet().stream().map(name -> "RESET " + name).collect(Collectors.joining("; "));

    /** One caller's work, its result once it ran in the batch, and the caller's wait. */
    private static final class Pending<T> {
        final Database.SqlWork<T> work;
        final CompletableFuture<Object> done = new CompletableFuture<>();
        private T result;

        Pending(Database.SqlWork<T> work) {
            this.work = work;
        }

        void run(Connection connection) throws SQLException {
            result = work.run(connection);
        }

        /** Its row shared a statement with others' rows, which wrote the rows {@code wrote} names. */
        void written(Connection connection, Set<UUID> wrote) throws SQLException {
            @SuppressWarnings("unchecked") // only a RowWork's pending is told
            RowWork<T> row = (RowWork<T>) work;
            result = row.written().result(connection, wrote.contains(row.row()));
        }

        /** The batch committed: the caller gets what its work returned. */
        void committed() {
            done.complete(result);
        }

        void failed(RuntimeException e) {
            done.completeExceptionally(e);
        }

        /** The batch rolled back before its commit: the caller runs its work in its own transaction. */
        void runAlone() {
            done.complete(ALONE);
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
        Object answer;
        try {
            answer = pending.done.join(); // a commit takes milliseconds; the caller's interrupt stays set
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
        if (answer == ALONE) {
            return db.inTransaction(work);
        }
        @SuppressWarnings("unchecked") // what this caller's own work returned
        T result = (T) answer;
        return result;
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
        Connection held = null;
        try {
            while (!closing || !queue.isEmpty()) {
                held = next(batch, held);
            }
        } finally {
            if (held != null) {
                giveBack(held);
            }
        }
    }

    /**
     * Waits a moment for works and commits what came, on {@code held} or a newly borrowed
     * connection; returns the connection to keep for the next batch, or null once it was given back
     * (idle, or after a batch that did not commit).
     */
    private Connection next(List<Pending<?>> batch, Connection held) {
        try {
            Pending<?> first = queue.poll(100, TimeUnit.MILLISECONDS);
            if (first == null) {
                if (held != null) { // idle: the pool gets it back (its lifetime rules apply again)
                    giveBack(held);
                }
                return null;
            }
            batch.add(first);
            queue.drainTo(batch, maxBatch - 1);
            Connection connection = held != null ? held : borrow();
            if (commit(connection, batch)) {
                return connection;
            }
            giveBack(connection);
            return null;
        } catch (InterruptedException e) {
            closing = true;
        } catch (SQLException e) {
            batch.forEach(p -> p.failed(new UnableToQueryException(e)));
        } catch (RuntimeException e) {
            batch.forEach(p -> p.failed(e));
        } finally {
            batch.clear();
        }
        return held;
    }

    /**
     * A pool connection for this writer to keep, with the writers' settings. It stays in auto-commit
     * between batches: a batch of one statement commits with it, the others open a transaction.
     */
    private Connection borrow() throws SQLException {
        Connection connection = pool.getConnection();
        try (var statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute(WRITER_SETTINGS);
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Returns a writer's connection to the pool as it was lent; a broken one the pool drops. */
    private static void giveBack(Connection connection) {
        try (connection) {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            try (var statement = connection.createStatement()) {
                statement.execute(POOL_SETTINGS);
            }
        } catch (SQLException | RuntimeException e) {
            // the pool finds a broken connection on its own; this writer borrows a new one next time
        }
    }

    /** Runs and commits one batch on {@code connection}; false when the connection must be given back. */
    private boolean commit(Connection connection, List<Pending<?>> batch) {
        RowWork.Statement statement = oneStatement(batch);
        if (statement != null) {
            return commitOneStatement(connection, statement, batch);
        }
        boolean worksRan = false;
        try {
            try {
                connection.setAutoCommit(false);
                runAll(connection, batch);
                worksRan = true;
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            if (!worksRan) {
                // a work failed (or waited too long for a lock) before the commit, and the rollback
                // undid them all: each caller runs its own again, alone, on its own thread
                batch.forEach(Pending::runAlone);
                return false;
            }
            RuntimeException failure =
                    e instanceof RuntimeException r ? r : new UnableToQueryException((SQLException) e);
            batch.forEach(p -> p.failed(failure));
            return false;
        }
        commits.incrementAndGet();
        works.addAndGet(batch.size());
        batch.forEach(Pending::committed);
        try {
            connection.setAutoCommit(true); // no transaction is open: nothing is sent
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The statement that writes every row of {@code batch} at once, if there is one: every work is
     * a row of one {@link RowWork.Statement} that is {@linkplain RowWork.Statement#answeredByReads()
     * answered by reads}, and their number takes one statement, not several.
     */
    private static RowWork.Statement oneStatement(List<Pending<?>> batch) {
        if (!(batch.getFirst().work instanceof RowWork<?> first)
                || !first.statement().answeredByReads()
                || RowWork.Statement.rowsPerStatement(batch.size()) != batch.size()) {
            return null;
        }
        for (Pending<?> pending : batch) {
            if (!(pending.work instanceof RowWork<?> row) || row.statement() != first.statement()) {
                return null;
            }
        }
        return first.statement();
    }

    /**
     * Commits a batch whose rows one statement writes, in auto-commit: PostgreSQL commits the
     * statement before it answers, so the batch costs one round trip, not a second for its {@code
     * COMMIT}. If PostgreSQL refuses the statement, nothing of it was written and every caller runs
     * its work alone, as after any rollback; if the connection breaks before the answer, the
     * statement may have committed, and every caller fails, as when a {@code COMMIT} goes
     * unanswered. Once it answered, every row it wrote is durable: each caller
     * then learns whether its own was written, and the reads its answer makes run on their own,
     * after that commit. A work that fails there fails alone; the others' rows stay written.
     */
    private boolean commitOneStatement(Connection connection, RowWork.Statement statement, List<Pending<?>> batch) {
        Set<UUID> wrote;
        try {
            wrote = statement.write(connection, rowWorks(batch));
        } catch (SQLException e) {
            if (answerLost(e)) {
                // the statement may have committed: a caller that ran its work again could write
                // twice, so each fails, as when a batch's COMMIT is not answered
                UnableToQueryException failure = new UnableToQueryException(e);
                batch.forEach(p -> p.failed(failure));
            } else {
                batch.forEach(Pending::runAlone); // PostgreSQL refused it: nothing was written
            }
            return false;
        } catch (RuntimeException e) {
            batch.forEach(Pending::runAlone); // a binder failed before anything was sent
            return false;
        }
        commits.incrementAndGet();
        works.addAndGet(batch.size());
        boolean connectionFine = true;
        for (Pending<?> pending : batch) {
            try {
                pending.written(connection, wrote);
                pending.committed();
            } catch (SQLException e) {
                pending.failed(new UnableToQueryException(e));
                connectionFine = false;
            } catch (RuntimeException e) {
                pending.failed(e);
            }
        }
        return connectionFine;
    }

    /**
     * Whether the connection broke without PostgreSQL's answer ({@code 08}: connection exception):
     * then nobody knows whether an auto-commit statement committed.
     */
    private static boolean answerLost(SQLException e) {
        return e.getSQLState() == null || e.getSQLState().startsWith("08");
    }

    /**
     * Runs a batch's works: each of its own, except that the rows of one {@link RowWork.Statement}
     * are written by one statement. Works name their own rows, so their order inside a batch does
     * not matter.
     */
    private static void runAll(Connection connection, List<Pending<?>> batch) throws SQLException {
        Map<RowWork.Statement, List<Pending<?>>> rows = new LinkedHashMap<>();
        for (Pending<?> pending : batch) {
            if (pending.work instanceof RowWork<?> row) {
                rows.computeIfAbsent(row.statement(), s -> new ArrayList<>()).add(pending);
            } else {
                pending.run(connection);
            }
        }
        for (Map.Entry<RowWork.Statement, List<Pending<?>>> group : rows.entrySet()) {
            writeTogether(connection, group.getKey(), group.getValue());
        }
    }

    private static void writeTogether(Connection connection, RowWork.Statement statement, List<Pending<?>> group)
            throws SQLException {
        Set<UUID> wrote = statement.write(connection, rowWorks(group));
        for (Pending<?> pending : group) {
            pending.written(connection, wrote);
        }
    }

    /** The row works of {@code pendings}, each of which holds one. */
    private static List<RowWork<?>> rowWorks(List<Pending<?>> pendings) {
        List<RowWork<?>> works = new ArrayList<>(pendings.size());
        for (Pending<?> pending : pendings) {
            works.add((RowWork<?>) pending.work);
        }
        return works;
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
            left.runAlone();
        }
    }
}
