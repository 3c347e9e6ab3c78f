package io.idem.server.assets;

import io.idem.server.http.ApiError;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One byte range of a stored file ({@code Range: bytes=a-b}, {@code bytes=a-}, {@code bytes=-n}),
 * and the streaming of a file whole ({@code 200}) or in part ({@code 206}) without holding it in
 * memory. Several ranges in one request are answered whole, which RFC 9110 allows; a range past the
 * end is {@code 416}.
 *
 * @param first the first byte served
 * @param last the last byte served (inclusive)
 */
public record ByteRange(long first, long last) {
    private static final Pattern SINGLE = Pattern.compile("bytes=([0-9]{0,18})-([0-9]{0,18})");
    private static final int BUFFER = 64 * 1024;

    public long length() {
        return last - first + 1;
    }

    /** The range a {@code Range} header asks of a file of {@code size} bytes; empty: the whole file. */
    public static Optional<ByteRange> of(String header, long size) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher m = SINGLE.matcher(header.strip());
        if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
            return Optional.empty(); // not one byte range: served whole
        }
        long first;
        long last;
        if (m.group(1).isEmpty()) {
            long suffix = Long.parseLong(m.group(2));
            first = Math.max(0, size - suffix);
            last = size - 1;
        } else {
            first = Long.parseLong(m.group(1));
            last = m.group(2).isEmpty() ? size - 1 : Math.min(Long.parseLong(m.group(2)), size - 1);
        }
        if (first >= size || last < first) {
            throw new ApiError(
                    416,
                    "range_not_satisfiable",
                    "the file has " + size + " bytes; '" + header + "' asks for none of them",
                    Map.of("size", size));
        }
        return Optional.of(new ByteRange(first, last));
    }

    /** Streams {@code file} ({@code size} bytes) to the client, the range its request asks for or all of it. */
    public static void serve(Context ctx, InputStream file, String mimeType, long size) throws IOException {
        try (InputStream in = file) {
            Optional<ByteRange> range = of(ctx.header("Range"), size);
            ctx.header("Accept-Ranges", "bytes").contentType(mimeType);
            long first = range.map(ByteRange::first).orElse(0L);
            long length = range.map(ByteRange::length).orElse(size);
            if (range.isPresent()) {
                ctx.status(206)
                        .header(
                                "Content-Range",
                                "bytes " + first + "-" + range.get().last() + "/" + size);
            }
            ctx.header("Content-Length", Long.toString(length));
            in.skipNBytes(first);
            OutputStream out = ctx.outputStream();
            byte[] buffer = new byte[BUFFER];
            long left = length;
            while (left > 0) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (read < 0) {
                    throw new IOException("stored file ended " + left + " bytes early");
                }
                out.write(buffer, 0, read);
                left -= read;
            }
            out.flush();
        }
    }
}
