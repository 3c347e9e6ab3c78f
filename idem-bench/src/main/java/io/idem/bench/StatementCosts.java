package io.idem.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL's own account of where its time went during one measurement ({@code
 * pg_stat_statements}, loaded with {@code --statements N}): the statements of one database that cost
 * the most execution time, per measured job. Execution time only: parse, plan and commit are not in
 * it, so the column adds up to less than the CPU per job.
 */
final class StatementCosts {
    private final Connection admin;
    private final int top;

    StatementCosts(BenchCluster cluster, int top) {
        this.admin = cluster.admin();
        this.top = top;
    }

    boolean enabled() {
        return top > 0;
    }

    /** Forgets every statement's counters so far (all databases). */
    void reset() {
        if (!enabled()) {
            return;
        }
        try (Statement st = admin.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset pg_stat_statements", e);
        }
    }

    /** Prints the costliest statements of {@code url}'s database since the last reset, per job. */
    void print(PrintStream out, String title, String url, long jobs) {
        if (!enabled()) {
            return;
        }
        double per = Math.max(1, jobs);
        Table table = new Table("calls/job", "exec µs/job", "rows/call", "statement (start)");
        try (PreparedStatement ps = admin.prepareStatement("""
                SELECT calls, total_exec_time, rows, regexp_replace(query, '\\s+', ' ', 'g')
                  FROM pg_stat_statements
                 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ?)
                 ORDER BY total_exec_time DESC LIMIT ?
                """)) {
            ps.setString(1, BenchCluster.databaseName(url));
            ps.setInt(2, top);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long calls = rs.getLong(1);
                    String query = rs.getString(4);
                    table.row(
                            Table.num(calls / per, 2),
                            Table.num(rs.getDouble(2) * 1e3 / per, 1),
                            Table.num(rs.getLong(3) / (double) Math.max(1, calls), 1),
                            query.substring(0, Math.min(110, query.length())).replace("|", "\\|"));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_statements", e);
        }
        out.printf("### %s: PostgreSQL's costliest statements (pg_stat_statements, execution time only)%n%n", title);
        table.print(out);
        out.println();
    }
}
