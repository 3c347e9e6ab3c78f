package io.idem.providers.http.wire;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An HTTP/1.1 connection's buffered input, for the client's connections and the fake vendor's. One
 * reader at a time, so unlike {@link java.io.BufferedInputStream} it takes no lock per call; a
 * head's lines are cut out of the buffer whole instead of byte by byte. Closing the socket (from
 * any thread) ends a read in progress.
 */
public final class WireInput extends InputStream {
    private final InputStream source;
    private final byte[] buffer;
    private int position;
    private int count;

    public WireInput(InputStream source, int size) {
        this.source = source;
        this.buffer = new byte[size];
    }

    /** Bytes already read off the socket and not yet consumed, without asking the socket. */
    int buffered() {
        return count - position;
    }

    /** Fills the empty buffer; false when the stream ended. */
    private boolean fill() throws IOException {
        position = 0;
        count = 0;
        int n = source.read(buffer, 0, buffer.length);
        if (n <= 0) {
            return false;
        }
        count = n;
        return true;
    }

    @Override
    public int read() throws IOException {
        if (position == count && !fill()) {
            return -1;
        }
        return buffer[position++] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, into.length);
        if (length == 0) {
            return 0;
        }
        if (position == count) {
            if (length >= buffer.length) {
                return source.read(into, offset, length); // a large read skips the copy
            }
            if (!fill()) {
                return -1;
            }
        }
        int n = Math.min(length, count - position);
        System.arraycopy(buffer, position, into, offset, n);
        position += n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return buffered() + source.available();
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    /**
     * The next HTTP/1.1 line (CRLF, or a bare LF) as ISO-8859-1, without its line end, at most
     * {@code max} bytes. {@link EOFException} when the stream ended before the line's first byte,
     * {@link ProtocolException} when it ended inside it, {@link LineTooLongException} when it ran
     * past {@code max}.
     */
    public String readLine(int max, String where) throws IOException {
        ByteArrayOutputStream spill = null; // the line's start, when it runs past the buffer
        while (true) {
            if (position == count && !fill()) {
                if (spill == null) {
                    throw new EOFException("connection closed before " + where);
                }
                throw new ProtocolException("connection closed inside " + where);
            }
            int start = position;
            int end = start;
            while (end < count && buffer[end] != '\n') {
                end++;
            }
            int taken = end - start;
            if ((spill == null ? 0 : spill.size()) + taken > max) {
                throw new LineTooLongException(where + " line longer than " + max + " bytes");
            }
            position = end < count ? end + 1 : count;
            if (end < count && spill == null) {
                return line(buffer, start, taken);
            }
            if (spill == null) {
                spill = new ByteArrayOutputStream(Math.max(64, 2 * taken));
            }
            spill.write(buffer, start, taken);
            if (end < count) {
                byte[] whole = spill.toByteArray();
                return line(whole, 0, whole.length);
            }
        }
    }

    private static String line(byte[] bytes, int start, int length) {
        int n = length > 0 && bytes[start + length - 1] == '\r' ? length - 1 : length;
        return new String(bytes, start, n, StandardCharsets.ISO_8859_1);
    }

    /** A line longer than its reader allows. */
    public static final class LineTooLongException extends ProtocolException {
        private static final long serialVersionUID = 1L;

        LineTooLongException(String message) {
            super(message);
        }
    }
}
