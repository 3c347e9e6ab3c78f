package io.idem.bench;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Which tables and indexes a run read, per job, from PostgreSQL's cumulative statistics of its
 * database (a copy's start at zero when it is made). A statement that scans what it should look up
 * by key shows up here as tuples read per job in the hundreds or thousands.
 */
record RelationReads(List<Line> lines) {

    /** One relation's scans and tuples read; {@code index} says {@code (seq scan)} for a table's own. */
    record Line(String relation, String index, long scans, long tuplesRead) {}

    /** Read before anything else touches the copy, so the figures are the drain's alone. */
    static RelationReads read(Statement st) throws SQLException {
        List<Line> lines = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("""
                SELECT relname, '(seq scan)', coalesce(seq_scan, 0), coalesce(seq_tup_read, 0) FROM pg_stat_user_tables
                UNION ALL
                SELECT relname, indexrelname, coalesce(idx_scan, 0), coalesce(idx_tup_read, 0) FROM pg_stat_user_indexes
                ORDER BY 4 DESC, 3 DESC
                """)) {
            while (rs.next()) {
                lines.add(new Line(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
            }
        }
        return new RelationReads(lines);
    }

    /** What was read between {@code earlier} and this reading. */
    RelationReads minus(RelationReads earlier) {
        List<Line> out = new ArrayList<>();
        for (Line line : lines) {
            Line before = earlier.lines.stream()
                    .filter(l ->
                            l.relation().equals(line.relation()) && l.index().equals(line.index()))
                    .findFirst()
                    .orElse(new Line(line.relation(), line.index(), 0, 0));
            out.add(new Line(
                    line.relation(),
                    line.index(),
                    line.scans() - before.scans(),
                    line.tuplesRead() - before.tuplesRead()));
        }
        out.sort((a, b) -> a.tuplesRead() != b.tuplesRead()
                ? Long.compare(b.tuplesRead(), a.tuplesRead())
                : Long.compare(b.scans(), a.scans()));
        return new RelationReads(out);
    }

    static Table table() {
        return new Table("run", "table", "index", "scans/job", "tuples read/job");
    }

    void addRows(Table table, Object run, long jobs, int top) {
        double n = Math.max(1, jobs);
        lines.stream()
                .limit(top)
                .forEach(l -> table.row(
                        run, l.relation(), l.index(), Table.num(l.scans() / n, 2), Table.num(l.tuplesRead() / n, 1)));
    }
}
