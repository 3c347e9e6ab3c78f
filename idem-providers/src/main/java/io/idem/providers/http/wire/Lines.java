package io.idem.providers.http.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;

/** Reads one HTTP/1.1 line (CRLF, or a bare LF) as ISO-8859-1, without its line end. */
final class Lines {
    private Lines() {}

    /**
     * The next line, at most {@code max} bytes. {@link EOFException} when the stream ended before
     * the line's first byte, {@link ProtocolException} when it ended inside it or it ran too long.
     */
    static String read(InputStream in, int max, String where) throws IOException {
        StringBuilder line = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (line.isEmpty()) {
                    throw new EOFException("connection closed before " + where);
                }
                throw new ProtocolException("connection closed inside " + where);
            }
            if (b == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return line.toString();
            }
            if (line.length() == max) {
                throw new ProtocolException(where + " line longer than " + max + " bytes");
            }
            line.append((char) b);
        }
    }
}
