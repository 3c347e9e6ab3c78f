package io.idem.providers.fake;

/** What the connection does after a request was handled. */
sealed interface Reply {
    /** Write this response. */
    record Answer(WireResponse response) implements Reply {}

    /** Drop the connection with a TCP reset and no response byte. */
    record Reset() implements Reply {}

    /** Keep the connection open and silent until the client goes away. */
    record Hold() implements Reply {}

    static Reply json(int status, Object body) {
        return new Answer(WireResponse.json(status, body));
    }
}
