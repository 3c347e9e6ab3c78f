package io.idem.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Markdown table built row by row and printed with aligned columns (pastes into docs as is). */
final class Table {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    Table row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, header " + header.size());
        }
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(String.valueOf(cell));
        }
        rows.add(row);
        return this;
    }

    void print(PrintStream out) {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        out.println(line(header, widths));
        List<String> rule = new ArrayList<>();
        for (int width : widths) {
            rule.add("-".repeat(width));
        }
        out.println(line(rule, widths));
        rows.forEach(row -> out.println(line(row, widths)));
        out.println();
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder out = new StringBuilder("|");
        for (int i = 0; i < cells.size(); i++) {
            out.append(' ')
                    .append(String.format(Locale.ROOT, "%-" + widths[i] + "s", cells.get(i)))
                    .append(" |");
        }
        return out.toString();
    }

    /** A number with {@code decimals} places, always with a dot. */
    static String num(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** Milliseconds from nanoseconds, two places. */
    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }
}
