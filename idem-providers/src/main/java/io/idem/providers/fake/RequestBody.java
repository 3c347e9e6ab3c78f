package io.idem.providers.fake;

import java.io.IOException;

/**
 * The body of the request being handled, read only on demand: a handler that never calls {@link
 * #read()} never causes {@code 100 Continue} to be sent, so a client that asked for it keeps its
 * body to itself.
 */
interface RequestBody {
    /** Sends {@code 100 Continue} if the client asked for it, then reads the whole body. */
    byte[] read() throws IOException, MalformedRequestException;

    /**
     * Reads the whole body without ever sending {@code 100 Continue}, as a server that ignores
     * {@code Expect} does: a client that waits for the {@code 100} must send its body anyway.
     */
    byte[] readIgnoringExpect() throws IOException, MalformedRequestException;
}
