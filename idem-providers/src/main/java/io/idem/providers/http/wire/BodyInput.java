package io.idem.providers.http.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.util.Locale;

/**
 * A response body as framed on the wire: by {@code Content-Length}, by chunks, or until the server
 * closes. {@link #complete()} says whether the body was read to its end in a way that leaves the
 * connection fit for another request. Not thread-safe.
 */
final class BodyInput extends InputStream {
    private enum Framing {
        FIXED,
        CHUNKED,
        UNTIL_CLOSE
    }

    private final WireInput in;
    private final Framing framing;
    /** Bytes left in the body (FIXED) or in the current chunk (CHUNKED). */
    private long left;

    private boolean ended;

    private BodyInput(WireInput in, Framing framing, long left) {
        this.in = in;
        this.framing = framing;
        this.left = left;
        this.ended = framing == Framing.FIXED && left == 0;
    }

    /** The body that follows {@code head} on {@code in}; {@code bodiless}: a HEAD request's answer. */
    static BodyInput of(ResponseHead head, WireInput in, boolean bodiless) throws IOException {
        int status = head.status();
        if (bodiless || status == 204 || status == 304 || status / 100 == 1) {
            return new BodyInput(in, Framing.FIXED, 0);
        }
        boolean chunked = head.headers().allValues("transfer-encoding").stream()
                .anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"));
        if (chunked) {
            return new BodyInput(in, Framing.CHUNKED, -1);
        }
        var length = head.headers().firstValue("content-length");
        if (length.isPresent()) {
            try {
                long n = Long.parseLong(length.get().trim());
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return new BodyInput(in, Framing.FIXED, n);
            } catch (NumberFormatException e) {
                throw new ProtocolException("bad Content-Length: " + length.get());
            }
        }
        return new BodyInput(in, Framing.UNTIL_CLOSE, -1);
    }

    /** Read to its end, framed so that the connection can carry the next exchange. */
    boolean complete() {
        return ended && framing != Framing.UNTIL_CLOSE;
    }

    /** The body's length when the head said it (fixed framing), else -1. */
    long knownLength() {
        return framing == Framing.FIXED ? left : -1;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (ended) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        return switch (framing) {
            case FIXED -> fixed(buffer, offset, length);
            case CHUNKED -> chunked(buffer, offset, length);
            case UNTIL_CLOSE -> untilClose(buffer, offset, length);
        };
    }

    private int fixed(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, (int) Math.min(length, left));
        if (n < 0) {
            throw new ProtocolException("connection closed with " + left + " body bytes still to come");
        }
        left -= n;
        ended = left == 0;
        return n;
    }

    private int chunked(byte[] buffer, int offset, int length) throws IOException {
        if (left <= 0) {
            if (left == 0) {
                crlf();
            }
            left = chunkSize();
            if (left == 0) {
                trailers();
                ended = true;
                return -1;
            }
        }
        int n = in.read(buffer, offset, (int) Math.min(length, left));
        if (n < 0) {
            throw new ProtocolException("connection closed inside a chunk");
        }
        left -= n;
        return n;
    }

    private int untilClose(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n < 0) {
            ended = true;
        }
        return n;
    }

    private long chunkSize() throws IOException {
        String line = line();
        int semicolon = line.indexOf(';');
        String hex = (semicolon < 0 ? line : line.substring(0, semicolon)).trim();
        try {
            long size = Long.parseLong(hex, 16);
            if (size < 0) {
                throw new NumberFormatException();
            }
            return size;
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad chunk size line");
        }
    }

    private void crlf() throws IOException {
        if (!line().isEmpty()) {
            throw new ProtocolException("chunk not followed by CRLF");
        }
    }

    private void trailers() throws IOException {
        while (!line().isEmpty()) {
            // trailer fields are read and dropped: no caller here needs them
        }
    }

    private String line() throws IOException {
        try {
            return in.readLine(4096, "the chunk framing");
        } catch (java.io.EOFException e) {
            throw new ProtocolException("connection closed inside the chunk framing");
        }
    }
}
