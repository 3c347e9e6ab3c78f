package io.idem.core.spi;

/** What became of writing an attempt ahead of its call. */
public enum AheadResult {
    /** Written: the call may go out. */
    WRITTEN,
    /** The job's lease is gone: another worker (or the sweeper) owns it now. Do not call. */
    LEASE_LOST,
    /** This provider was already attempted in this round, or another attempt is still open. */
    ALREADY_ATTEMPTED
}
