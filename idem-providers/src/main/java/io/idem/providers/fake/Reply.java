package io.idem.providers.fake;

/** What the connection does after a request was handled. */
sealed interface Reply {
    /** Write this response. */
    record Answer(WireResponse response) implements Reply {}

    /** Drop the connection with a TCP reset and no response byte. */
    record Reset() implements Reply {}

    /** Keep the connection open and silent until the client goes away. */
    record Hold() implements Reply {}

    /**
     * Write the response by hand, over time (a stream); the connection closes after it, so a
     * writer that stops early leaves the client with a visibly cut answer.
     */
    record Stream(Streamer streamer) implements Reply {}

    /** Writes one whole response, head included. */
    @FunctionalInterface
    interface Streamer {
        void write(java.io.OutputStream out) throws java.io.IOException, InterruptedException;
    }

    static Reply json(int status, Object body) {
        return new Answer(WireResponse.json(status, body));
    }
}
