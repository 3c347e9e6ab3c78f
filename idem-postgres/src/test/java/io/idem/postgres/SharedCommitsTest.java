package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shared commits on real PostgreSQL: concurrent callers share transactions and each gets its own
 * result only once its rows are committed; a caller whose work fails fails alone and leaves nothing
 * behind, while the others of its batch still land.
 */
class SharedCommitsTest {
    private static Database db;

    @BeforeAll
    static void open() {
        db = TestDatabases.fresh();
        db.withConnection(
                c -> c.createStatement().execute("CREATE TABLE shared_rows (n int PRIMARY KEY, tx bigint NOT NULL)"));
        // counts the statements that write row_rows, whatever their rows
        db.withConnection(c -> c.createStatement().execute("""
                CREATE TABLE row_rows (n int PRIMARY KEY, id uuid NOT NULL, tx bigint NOT NULL CHECK (tx >= 0));
                CREATE TABLE row_statements (tx bigint NOT NULL);
                CREATE FUNCTION count_row_statement() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN INSERT INTO row_statements VALUES (txid_current()); RETURN NULL; END $$;
                CREATE TRIGGER row_rows_statements AFTER INSERT ON row_rows
                    FOR EACH STATEMENT EXECUTE FUNCTION count_row_statement();
                """));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** Inserts row {@code n} with the id of the transaction it ran in; returns that id. */
    private static long insert(int n) {
        return db.inSharedTransaction(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO shared_rows (n, tx) VALUES (?, txid_current()) RETURNING tx")) {
                ps.setInt(1, n);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private static boolean committed(int n) {
        // a separate connection sees only what is committed
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM shared_rows WHERE n = ?")) {
                ps.setInt(1, n);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /**
     * A writer reaches rows through indexes (its planner settings). PostgreSQL up to 17 prices a
     * sequential scan it cannot avoid, such as a trigger's look at a table without an index, at ten
     * billion then, far above its JIT threshold; where it has LLVM (Debian's, the official images)
     * it compiled the job-end trigger's check on every settle, about 100 ms each. A writer's
     * statements never go through the JIT. (PostgreSQL 18, the embedded one, counts disabled paths
     * apart from their cost and has no LLVM here, so the setting is what can be seen.)
     */
    @Test
    void aWritersStatementsNeverGoThroughPostgresJit() {
        String writer = db.inSharedTransaction(SharedCommitsTest::jitSetting);
        assertThat(writer).isEqualTo("off");
        assertThat(db.withConnection(SharedCommitsTest::jitSetting))
                .as("a pool connection, as the pool lends it")
                .isEqualTo("on");
    }

    private static String jitSetting(java.sql.Connection c) throws java.sql.SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SHOW jit")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void concurrentCallersShareCommitsAndEachReturnsOnlyOnceItsRowIsCommitted() throws Exception {
        long[] before = db.sharedCommitCounts();
        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            var futures = IntStream.range(0, 2_000)
                    .mapToObj(n -> CompletableFuture.supplyAsync(
                            () -> {
                                long tx = insert(n);
                                assertThat(committed(n))
                                        .as("row %d is committed when its caller returns", n)
                                        .isTrue();
                                return tx;
                            },
                            callers))
                    .toList();
            List<Long> transactions =
                    futures.stream().map(CompletableFuture::join).toList();
            long[] after = db.sharedCommitCounts();
            assertThat(after[1] - before[1]).isEqualTo(2_000);
            assertThat(after[0] - before[0])
                    .as("commits for 2,000 concurrent works")
                    .isLessThan(2_000);
            assertThat(transactions.stream().distinct().count()).isEqualTo(after[0] - before[0]);
        }
        assertThat(TestDatabases.column(db, "SELECT count(*) FROM shared_rows WHERE n < 2000"))
                .containsExactly("2000");
    }

    @Test
    void aFailingWorkFailsAloneAndTheOthersOfItsBatchStillLand() throws Exception {
        List<Supplier<Object>> works = new ArrayList<>(IntStream.range(10_000, 10_020)
                .mapToObj(n -> (Supplier<Object>) () -> insert(n))
                .toList());
        works.add(() -> db.inSharedTransaction(c -> {
            c.createStatement().execute("INSERT INTO shared_rows (n, tx) VALUES (10000, 0)");
            return c.createStatement().executeUpdate("INSERT INTO shared_rows (n, tx) VALUES (10000, 0)");
        }));
        var futures = inOneBatch(works);
        futures.subList(0, 20).forEach(CompletableFuture::join);
        assertThatThrownBy(futures.get(20)::join).hasCauseInstanceOf(UnableToQueryException.class);
        assertThat(TestDatabases.column(
                        db, "SELECT count(*) FROM shared_rows WHERE n BETWEEN 10000 AND 10019 AND tx <> 0"))
                .containsExactly("20");
        assertThat(TestDatabases.column(db, "SELECT count(*) FROM shared_rows WHERE tx = 0"))
                .containsExactly("0");
    }

    /** {@code "new 17 in 17"}: written or taken, row {@code n}'s transaction, "in", the asking one. */
    private static String answer(java.sql.Connection c, String table, int n, boolean written) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT tx, txid_current() FROM " + table + " WHERE n = ?")) {
            ps.setInt(1, n);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return (written ? "new " : "taken ") + rs.getLong(1) + " in " + rs.getLong(2);
            }
        }
    }

    /** Queues {@code works} behind both writers, so that they share one batch, and runs them. */
    private static <T> List<CompletableFuture<T>> inOneBatch(List<Supplier<T>> works) throws InterruptedException {
        return inOneBatch(db, works);
    }

    /** {@link #inOneBatch(List)} on {@code db}'s writers. */
    static <T> List<CompletableFuture<T>> inOneBatch(Database db, List<Supplier<T>> works) throws InterruptedException {
        CountDownLatch hold = new CountDownLatch(1);
        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            var blockers = IntStream.range(0, 2)
                    .mapToObj(i -> CompletableFuture.runAsync(
                            () -> db.inSharedTransaction(c -> {
                                await(hold);
                                return 0;
                            }),
                            callers))
                    .toList();
            Thread.sleep(200);
            var futures = works.stream()
                    .map(work -> CompletableFuture.supplyAsync(work, callers))
                    .toList();
            Thread.sleep(200);
            hold.countDown();
            blockers.forEach(CompletableFuture::join);
            futures.forEach(f -> f.handle((v, e) -> v).join());
            return futures;
        }
    }

    private static final RowWork.Statement INSERT_ROWS = new RowWork.Statement("""
            INSERT INTO row_rows (n, id, tx) SELECT n, id, COALESCE(tx, txid_current()) FROM (VALUES %s) AS r (n, id, tx)
            ON CONFLICT (n) DO NOTHING RETURNING id
            """, "(?::integer, ?::uuid, ?::bigint)");

    /**
     * Row {@code n} as a work whose statement may carry others' rows: whether it was written, what
     * the row holds, and the transaction the follow-up question ran in ({@code "new 17 in 17"}).
     * {@code tx} null writes the transaction's id; 0 is written as it is.
     */
    private static String insertRow(int n, Long tx) {
        java.util.UUID id = java.util.UUID.randomUUID();
        return db.inSharedTransaction(new RowWork<>(
                INSERT_ROWS,
                id,
                (c, ps, first) -> {
                    ps.setInt(first, n);
                    ps.setObject(first + 1, id);
                    ps.setObject(first + 2, tx, java.sql.Types.BIGINT);
                    return first + 3;
                },
                (c, written) -> answer(c, "row_rows", n, written)));
    }

    @Test
    void rowsThatShareABatchAreWrittenByOneStatementAndEachLearnsWhetherItsOwnWasWritten() throws Exception {
        insertRow(50_000, null);
        insertRow(50_010, null);
        long before = Long.parseLong(
                TestDatabases.column(db, "SELECT count(*) FROM row_statements").getFirst());
        List<Supplier<String>> works = IntStream.range(50_000, 50_020)
                .mapToObj(n -> (Supplier<String>) () -> insertRow(n, null))
                .toList();
        List<String> answers =
                inOneBatch(works).stream().map(CompletableFuture::join).toList();

        Set<String> transactions = sharedTransactions(answers);
        assertThat(transactions).as("the works shared transactions").hasSizeLessThanOrEqualTo(3);
        // one statement per shared transaction (per chunk of its rows), not one per row
        java.util.Map<String, Integer> rowsPerTransaction = new java.util.HashMap<>();
        answers.forEach(a -> rowsPerTransaction.merge(a.split(" ")[3], 1, Integer::sum));
        int statements = rowsPerTransaction.values().stream()
                .mapToInt(SharedCommitsTest::statementsFor)
                .sum();
        assertThat(statements).isLessThan(20 / 2);
        assertThat(TestDatabases.column(db, "SELECT count(*) FROM row_statements"))
                .containsExactly(String.valueOf(before + statements));
    }

    private static int statementsFor(int rows) {
        int statements = 0;
        for (int left = rows; left > 0; left -= RowWork.Statement.rowsPerStatement(left)) {
            statements++;
        }
        return statements;
    }

    @Test
    void aStatementsTextIsMadeForElevenRowCountsOnly() {
        java.util.Set<Integer> sizes = new java.util.TreeSet<>();
        for (int n = 1; n <= 200; n++) {
            int total = 0;
            for (int left = n; left > 0; ) {
                int rows = RowWork.Statement.rowsPerStatement(left);
                assertThat(rows).isBetween(1, Math.min(left, 64));
                sizes.add(rows);
                total += rows;
                left -= rows;
            }
            assertThat(total).isEqualTo(n);
            if (n <= 8) {
                assertThat(statementsFor(n)).as("%d rows", n).isEqualTo(1);
            }
        }
        assertThat(sizes).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64);
        assertThat(statementsFor(64)).isEqualTo(1);
        assertThat(statementsFor(13)).isEqualTo(2); // 8 + 5
    }

    @Test
    void aRowThatFailsItsStatementFailsAloneAndTheOtherRowsStillLand() throws Exception {
        tenLandAndTheEleventhFailsAlone(
                "row_rows", 60_000, n -> insertRow(n, null), () -> insertRow(60_010, -1L)); // tx >= 0 is checked
    }

    /**
     * Checks the twenty answers of rows 0..19 of a batch ({@code "new 17 in 17"}: written or taken, the
     * row's transaction, "in", the asking transaction) where rows 0 and 10 were there before, and
     * returns the transactions the answers were asked in.
     */
    private static Set<String> sharedTransactions(List<String> answers) {
        Set<String> transactions = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            String[] answer = answers.get(i).split(" ");
            if (i == 0 || i == 10) {
                assertThat(answer[0]).as("row %d was there before", i).isEqualTo("taken");
                assertThat(answer[1])
                        .as("row %d was written by an earlier transaction", i)
                        .isNotEqualTo(answer[3]);
            } else {
                assertThat(answer[0]).as("row %d is new", i).isEqualTo("new");
                assertThat(answer[3])
                        .as("row %d was asked about in the transaction that wrote it", i)
                        .isEqualTo(answer[1]);
            }
            transactions.add(answer[3]);
        }
        return transactions;
    }

    /**
     * Rows {@code first..first+9} and a failing eleventh work in one batch: the ten land with their
     * own answers, the eleventh fails alone and leaves nothing in {@code table}.
     */
    private static void tenLandAndTheEleventhFailsAlone(
            String table, int first, java.util.function.IntFunction<String> row, Supplier<String> failing)
            throws InterruptedException {
        List<Supplier<String>> works = new ArrayList<>(IntStream.range(first, first + 10)
                .mapToObj(n -> (Supplier<String>) () -> row.apply(n))
                .toList());
        works.add(failing);
        var futures = inOneBatch(works);

        for (int i = 0; i < 10; i++) {
            assertThat(futures.get(i).join()).startsWith("new ");
        }
        assertThatThrownBy(futures.get(10)::join).hasCauseInstanceOf(UnableToQueryException.class);
        assertThat(TestDatabases.column(
                        db, "SELECT count(*) FROM " + table + " WHERE n BETWEEN " + first + " AND " + (first + 10)))
                .containsExactly("10");
    }

    @Test
    void aBatchStuckOnAnotherTransactionsLockLetsItsCallersWaitAloneWithoutHoldingUpOthers() throws Exception {
        insert(20_000);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
            // an operator's long transaction holds row 20000
            var holder = CompletableFuture.runAsync(
                    () -> db.inTransaction(c -> {
                        c.createStatement().execute("SELECT * FROM shared_rows WHERE n = 20000 FOR UPDATE");
                        locked.countDown();
                        await(release);
                        return 0;
                    }),
                    callers);
            locked.await();
            var blocked = CompletableFuture.supplyAsync(
                    () -> db.inSharedTransaction(
                            c -> c.createStatement().executeUpdate("UPDATE shared_rows SET tx = -1 WHERE n = 20000")),
                    callers);
            Thread.sleep(1_500); // past the batch's lock timeout: the caller now waits alone
            var others = IntStream.range(20_001, 20_011)
                    .mapToObj(n -> CompletableFuture.supplyAsync(() -> insert(n), callers))
                    .toList();
            others.forEach(CompletableFuture::join);
            assertThat(blocked).isNotDone();
            release.countDown();
            holder.join();
            assertThat(blocked.join()).isEqualTo(1);
        }
        assertThat(TestDatabases.column(db, "SELECT tx FROM shared_rows WHERE n = 20000"))
                .containsExactly("-1");
    }

    private static void await(CountDownLatch latch) throws SQLException {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException(e);
        }
    }

    @Test
    void aSharedBatchWaitsASecondForLocksAndEveryOtherConnectionKeepsThePoolsSetting() {
        String inBatch = db.inSharedTransaction(SharedCommitsTest::lockTimeout);
        assertThat(inBatch).isEqualTo("1s");
        List<String> outside = IntStream.range(0, 8)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> db.withConnection(SharedCommitsTest::lockTimeout)))
                .map(CompletableFuture::join)
                .toList();
        assertThat(outside).containsOnly("0");
        assertThat(db.inTransaction(SharedCommitsTest::lockTimeout)).isEqualTo("0");
    }

    private static String lockTimeout(java.sql.Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SHOW lock_timeout")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
