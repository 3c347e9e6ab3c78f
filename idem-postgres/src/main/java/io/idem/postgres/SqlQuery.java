package io.idem.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A statement assembled from parts, with its parameters kept in the order their placeholders
 * appear. Only fixed SQL goes into the text; every value is a parameter. Not thread-safe.
 */
final class SqlQuery {
    private final StringBuilder sql = new StringBuilder();
    private final List<Object> values = new ArrayList<>();

    /** Appends fixed SQL text. */
    SqlQuery sql(String text) {
        sql.append(text);
        return this;
    }

    /** Appends fixed SQL with placeholders and their values, in order. */
    SqlQuery sql(String text, Object... params) {
        long marks = text.chars().filter(ch -> ch == '?').count();
        if (marks != params.length) {
            throw new IllegalArgumentException(marks + " placeholders but " + params.length + " values: " + text);
        }
        sql.append(text);
        values.addAll(List.of(params));
        return this;
    }

    PreparedStatement prepare(Connection c) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql.toString());
        try {
            for (int i = 0; i < values.size(); i++) {
                bind(c, ps, i + 1, values.get(i));
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    private static void bind(Connection c, PreparedStatement ps, int index, Object value) throws SQLException {
        switch (value) {
            case String text -> ps.setString(index, text);
            case UUID id -> ps.setObject(index, id);
            case Instant at -> ps.setTimestamp(index, JobRows.timestamp(at));
            case Long number -> ps.setLong(index, number);
            case Integer number -> ps.setInt(index, number);
            case String[] texts -> ps.setArray(index, c.createArrayOf("text", texts));
            default ->
                throw new IllegalArgumentException(
                        "cannot bind a " + value.getClass().getName());
        }
    }

    @Override
    public String toString() {
        return sql.toString();
    }
}
