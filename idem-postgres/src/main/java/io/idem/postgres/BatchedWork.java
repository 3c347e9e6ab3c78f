package io.idem.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A shared work that is one statement whose row count tells its caller what happened (a fence held,
 * a key was new). {@link SharedCommits} sends the works of one statement that share a commit to the
 * database together, as one JDBC batch: one round trip for all of them instead of one each. Each
 * work still gets its own row count, and may then ask more on the same connection, in the same
 * transaction (why a fence did not hold, say). Alone, it is one statement and its count.
 *
 * @param sql the statement, the same text for every work that may share its round trip
 * @param binder sets this work's parameters
 * @param counted this work's result from its own row count
 */
record BatchedWork<T>(String sql, Binder binder, Counted<T> counted) implements Database.SqlWork<T> {

    /** Sets one work's parameters on the statement (the connection makes its arrays). */
    @FunctionalInterface
    interface Binder {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    /** One work's result from the rows its statement wrote; it may query {@code connection} further. */
    @FunctionalInterface
    interface Counted<T> {
        T result(Connection connection, int rows) throws SQLException;
    }

    @Override
    public T run(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(connection, statement);
            return counted.result(connection, statement.executeUpdate());
        }
    }
}
