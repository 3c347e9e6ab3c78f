package io.idem.postgres;

import java.util.UUID;

/**
 * A guarded write changed more rows than it can: a bug (a missing key in a {@code WHERE}, a broken
 * unique index), never a lost lease. Thrown instead of being read as "someone else won".
 */
public final class UnexpectedRowCountException extends io.idem.core.IdemException {
    private final String write;
    private final UUID id;
    private final int rows;

    UnexpectedRowCountException(String write, UUID id, int rows) {
        super(write + " for " + id + " changed " + rows + " rows; a guarded write changes 0 or 1");
        this.write = write;
        this.id = id;
        this.rows = rows;
    }

    public String write() {
        return write;
    }

    public UUID id() {
        return id;
    }

    public int rows() {
        return rows;
    }

    /**
     * The outcome of a guarded write of one row: {@code false} when 0 rows changed (someone else won,
     * or the lease was lost), {@code true} for 1, and a thrown bug for more.
     */
    static boolean oneRow(int rows, String write, UUID id) {
        if (rows > 1) {
            throw new UnexpectedRowCountException(write, id, rows);
        }
        return rows == 1;
    }
}
