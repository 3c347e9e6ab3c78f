package io.idem.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shared work that writes one row of a statement that can write many: {@link SharedCommits}
 * merges the works of one {@link Statement} that share a commit into one statement with a {@code
 * VALUES} row each (a few statements for a large batch: {@link Statement#rowsPerStatement}).
 * PostgreSQL then starts its executor, opens the tables and their indexes and prepares their
 * checks, triggers and index predicates once for all of them instead of once each (about two
 * fifths of its CPU per accepted job in a batch of eight). Each work learns whether its own row
 * was written (the statement returns the ids of the rows it wrote), and may then ask more on the
 * same connection, in the same transaction (why its key was taken, say), unless its statement is
 * {@linkplain Statement#answeredByReads() answered by reads}. Alone, it is the same statement with
 * one row.
 *
 * @param statement the statement, the same object for every work that may share it
 * @param row the id this work's row is returned by when it is written
 * @param binder sets this work's parameters, {@link Statement#parameters()} of them from a given index
 * @param written this work's result from whether its row was written
 */
record RowWork<T>(Statement statement, UUID row, Binder binder, Written<T> written) implements Database.SqlWork<T> {

    /** Sets one work's parameters from {@code first}; returns the index after its last one. */
    @FunctionalInterface
    interface Binder {
        int bind(Connection connection, PreparedStatement statement, int first) throws SQLException;
    }

    /**
     * One work's result from whether its row was written; it may query {@code connection} further,
     * in the statement's transaction, or after its commit where the statement is {@linkplain
     * Statement#answeredByReads() answered by reads}.
     */
    @FunctionalInterface
    interface Written<T> {
        T result(Connection connection, boolean written) throws SQLException;
    }

    @Override
    public T run(Connection connection) throws SQLException {
        return written.result(
                connection, statement.write(connection, List.of(this)).contains(row));
    }

    /**
     * A statement over {@code VALUES} rows of typed parameters that returns, as its only column, the
     * id of every row it wrote. Its text for n rows is made once and kept. Thread-safe.
     */
    static final class Statement {
        private final String template;
        private final String row;
        private final boolean answeredByReads;
        private final int parameters;
        private final ConcurrentHashMap<Integer, String> texts = new ConcurrentHashMap<>();

        /**
         * A statement whose works' answers may write more in its transaction.
         *
         * @param template the statement, with {@code %s} where the rows go (after {@code VALUES})
         * @param row one row of parameters with their types, e.g. {@code (?::uuid, ?::text)}
         */
        Statement(String template, String row) {
            this(template, row, false);
        }

        /**
         * A statement whose works' answers ({@link Written}) only read, so they may run after its
         * commit: a batch of its rows that one statement writes can then commit in auto-commit, in
         * the statement's own round trip ({@link SharedCommits}).
         */
        static Statement answeredByReads(String template, String row) {
            return new Statement(template, row, true);
        }

        private Statement(String template, String row, boolean answeredByReads) {
            this.template = template;
            this.row = row;
            this.answeredByReads = answeredByReads;
            this.parameters = (int) row.chars().filter(ch -> ch == '?').count();
            if (parameters == 0 || !template.contains("%s")) {
                throw new IllegalArgumentException("a row statement needs parameters and a place for its rows");
            }
        }

        /** Whether its works' answers only read, and so may come after the commit. */
        boolean answeredByReads() {
            return answeredByReads;
        }

        /** Parameters per row. */
        int parameters() {
            return parameters;
        }

        String sql(int rows) {
            return texts.computeIfAbsent(
                    rows, n -> template.formatted(String.join(", ", java.util.Collections.nCopies(n, row))));
        }

        /**
         * Writes the rows of {@code works}, in as few statements as {@link #rowsPerStatement} allows;
         * the ids of the rows they wrote.
         */
        Set<UUID> write(Connection connection, List<? extends RowWork<?>> works) throws SQLException {
            Set<UUID> wrote = new HashSet<>();
            for (int from = 0; from < works.size(); ) {
                int rows = rowsPerStatement(works.size() - from);
                write(connection, works.subList(from, from + rows), wrote);
                from += rows;
            }
            return wrote;
        }

        /**
         * How many of {@code left} rows the next statement takes: all of them up to eight, else the
         * largest power of two that fits, at most 64. A statement's text, and so its parse and its plans on each
         * connection, is made for eleven row counts only (1 to 8, 16, 32, 64); one made for every
         * count up to 64 kept PostgreSQL planning (a tenth of its CPU in a 64-worker drain), as each
         * new text is parsed and planned several times on every connection before its plan is kept.
         */
        static int rowsPerStatement(int left) {
            return left <= 8 ? left : Math.min(64, Integer.highestOneBit(left));
        }

        private void write(Connection connection, List<? extends RowWork<?>> works, Set<UUID> wrote)
                throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement(sql(works.size()))) {
                int next = 1;
                for (RowWork<?> work : works) {
                    int after = work.binder().bind(connection, statement, next);
                    if (after != next + parameters) {
                        throw new IllegalStateException("a row work bound " + (after - next)
                                + " parameters, its statement takes " + parameters);
                    }
                    next = after;
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        wrote.add(rows.getObject(1, UUID.class));
                    }
                }
            }
        }
    }
}
