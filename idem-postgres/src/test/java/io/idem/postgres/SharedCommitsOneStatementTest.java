package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A shared batch whose rows one statement writes, where the statement's answers only read: it
 * commits with the statement, in auto-commit, so the batch sends no {@code COMMIT} of its own; each
 * caller still returns only once its row is durable. Counted on real PostgreSQL through a pool
 * whose connections count the commits they are asked for.
 */
class SharedCommitsOneStatementTest {
    private static HikariDataSource pool;
    private static Database db;
    private static final AtomicInteger commitCalls = new AtomicInteger();
    private static final AtomicInteger answersToLose = new AtomicInteger();

    private static final String TEMPLATE = """
            INSERT INTO %s (n, id, tx) SELECT n, id, tx FROM (VALUES %%s) AS r (n, id, tx)
            ON CONFLICT (n) DO NOTHING RETURNING id
            """;
    private static final String ROW = "(?::integer, ?::uuid, ?::bigint)";
    private static final RowWork.Statement READ_ANSWERED =
            RowWork.Statement.answeredByReads(TEMPLATE.formatted("read_rows"), ROW);
    private static final RowWork.Statement LOST_ANSWERS =
            RowWork.Statement.answeredByReads(TEMPLATE.formatted("lost_rows"), ROW);
    private static final RowWork.Statement PLAIN = new RowWork.Statement(TEMPLATE.formatted("plain_rows"), ROW);

    @BeforeAll
    static void open() {
        pool = new HikariDataSource();
        pool.setJdbcUrl(TestDatabases.freshUrl());
        pool.setMaximumPoolSize(8);
        db = Database.over(countingCommits(pool));
        db.withConnection(c -> c.createStatement().execute("""
                CREATE TABLE read_rows (n int PRIMARY KEY, id uuid NOT NULL, tx bigint NOT NULL CHECK (tx >= 0));
                CREATE TABLE plain_rows (n int PRIMARY KEY, id uuid NOT NULL, tx bigint NOT NULL CHECK (tx >= 0));
                CREATE TABLE lost_rows (n int PRIMARY KEY, id uuid NOT NULL, tx bigint NOT NULL CHECK (tx >= 0));
                """));
    }

    @AfterAll
    static void close() {
        db.close();
        pool.close();
    }

    /**
     * The pool, with every connection it lends counting its {@code commit()} calls, and losing the
     * answers of the next {@link #answersToLose} statements on {@code lost_rows}: the statement runs
     * (and, in auto-commit, commits), then the caller hears that the connection broke, as when the
     * network drops the answer.
     */
    private static DataSource countingCommits(DataSource real) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object value = invoke(real, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return value;
                    }
                    Connection connection = (Connection) value;
                    return Proxy.newProxyInstance(
                            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (m.getName().equals("commit")) {
                                    commitCalls.incrementAndGet();
                                }
                                Object answer = invoke(connection, m, a);
                                if (m.getName().equals("prepareStatement") && ((String) a[0]).contains("lost_rows")) {
                                    return losingAnswers((PreparedStatement) answer);
                                }
                                return answer;
                            });
                });
    }

    private static PreparedStatement losingAnswers(PreparedStatement real) {
        return (PreparedStatement) Proxy.newProxyInstance(
                PreparedStatement.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                    Object answer = invoke(real, m, a);
                    if (m.getName().equals("executeQuery") && answersToLose.getAndDecrement() > 0) {
                        ((ResultSet) answer).close();
                        throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
                    }
                    return answer;
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Row {@code n} of {@code statement}'s table as a shared work: {@code "new"} or {@code "taken"},
     * then whether the answer was asked inside a write transaction ({@code "in tx"}) or after it
     * ({@code "after"}); {@code failAnswer} makes the answer throw instead.
     */
    private static String row(RowWork.Statement statement, int n, long tx, boolean failAnswer) {
        UUID id = UUID.randomUUID();
        return db.inSharedTransaction(new RowWork<>(
                statement,
                id,
                (c, ps, first) -> {
                    ps.setInt(first, n);
                    ps.setObject(first + 1, id);
                    ps.setLong(first + 2, tx);
                    return first + 3;
                },
                (c, written) -> {
                    if (failAnswer) {
                        throw new IllegalStateException("answer " + n + " fails");
                    }
                    return (written ? "new " : "taken ") + (inWriteTransaction(c) ? "in tx" : "after");
                }));
    }

    private static boolean inWriteTransaction(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT txid_current_if_assigned() IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** Runs the works for rows {@code first..first+count-1} in one batch, behind both held writers. */
    private static List<CompletableFuture<String>> inOneBatch(int first, int count, IntFunction<String> work)
            throws InterruptedException {
        return SharedCommitsTest.inOneBatch(
                db,
                IntStream.range(first, first + count)
                        .mapToObj(n -> (Supplier<String>) () -> work.apply(n))
                        .toList());
    }

    private static long count(String table, int first, int count) {
        return Long.parseLong(TestDatabases.column(
                        db,
                        "SELECT count(*) FROM " + table + " WHERE n BETWEEN " + first + " AND " + (first + count - 1))
                .getFirst());
    }

    @Test
    void aRowThatOneStatementWritesCommitsWithItAndIsAnsweredAfterItsCommit() {
        commitCalls.set(0);
        for (int n = 100; n < 108; n++) {
            assertThat(row(READ_ANSWERED, n, 1, false)).isEqualTo("new after");
        }
        assertThat(count("read_rows", 100, 8)).isEqualTo(8);
        assertThat(commitCalls.get()).as("COMMITs sent").isZero();
    }

    @Test
    void aRowOfAStatementWhoseAnswersMayWriteIsAnsweredInItsTransactionAndCommittedAfter() {
        commitCalls.set(0);
        for (int n = 200; n < 208; n++) {
            assertThat(row(PLAIN, n, 1, false)).isEqualTo("new in tx");
        }
        assertThat(count("plain_rows", 200, 8)).isEqualTo(8);
        assertThat(commitCalls.get()).as("COMMITs sent").isEqualTo(8);
    }

    @Test
    void rowsThatShareABatchAndOneStatementAreAllAnsweredAfterItsCommit() throws Exception {
        var futures = inOneBatch(500, 8, n -> row(READ_ANSWERED, n, 1, false));

        assertThat(futures).allSatisfy(f -> assertThat(f.join()).isEqualTo("new after"));
        assertThat(count("read_rows", 500, 8)).isEqualTo(8);
    }

    @Test
    void aRowThatFailsTheStatementFailsAloneAndTheOtherRowsStillLand() throws Exception {
        // tx >= 0 is checked: row 307 fails the batch's statement, so every caller writes alone
        var futures = inOneBatch(300, 8, n -> row(READ_ANSWERED, n, n == 307 ? -1 : 1, false));

        for (int i = 0; i < 7; i++) {
            assertThat(futures.get(i).join()).startsWith("new ");
        }
        assertThatThrownBy(futures.get(7)::join).hasCauseInstanceOf(UnableToQueryException.class);
        assertThat(count("read_rows", 300, 8)).isEqualTo(7);
    }

    @Test
    void anAnswerThatFailsAfterTheCommitFailsOnlyItsOwnCaller() throws Exception {
        var futures = inOneBatch(400, 8, n -> row(READ_ANSWERED, n, 1, n == 403));

        for (int i = 0; i < 8; i++) {
            if (i == 3) {
                assertThatThrownBy(futures.get(i)::join).hasMessageContaining("answer 403 fails");
            } else {
                assertThat(futures.get(i).join()).isEqualTo("new after");
            }
        }
        // the statement had committed every row, the failing caller's too, before the answers
        assertThat(count("read_rows", 400, 8)).isEqualTo(8);
    }

    @Test
    void whenTheStatementsAnswerIsLostEveryCallerFailsAndNoneWritesAgain() {
        // the statement committed, but the writer cannot know: a caller that ran its work again
        // would write a second time (a second write-ahead, a second job), so each fails instead
        answersToLose.set(1);
        assertThatThrownBy(() -> row(LOST_ANSWERS, 600, 1, false))
                .isInstanceOf(UnableToQueryException.class)
                .hasRootCauseMessage("An I/O error occurred while sending to the backend.");
        assertThat(count("lost_rows", 600, 1))
                .as("written once, by the shared statement")
                .isEqualTo(1);
    }
}
