package io.idem.postgres;

import java.sql.SQLException;

/** The database could not run a statement. Carries the SQL state, never the statement's values. */
public final class UnableToQueryException extends io.idem.core.IdemException {
    public UnableToQueryException(SQLException cause) {
        super("database error (SQL state " + cause.getSQLState() + "): " + cause.getMessage(), cause);
    }

    public String sqlState() {
        return ((SQLException) getCause()).getSQLState();
    }
}
