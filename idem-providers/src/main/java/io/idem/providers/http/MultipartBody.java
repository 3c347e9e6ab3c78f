package io.idem.providers.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** A {@code multipart/form-data} body built in memory (an edit's few bounded uploads and its fields). */
public final class MultipartBody {
    private final String boundary = "idem-" + UUID.randomUUID();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** The {@code Content-Type} header that goes with it. */
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    public MultipartBody field(String name, String value) {
        head("Content-Disposition: form-data; name=\"" + name + "\"\r\n");
        write(value.getBytes(StandardCharsets.UTF_8));
        write("\r\n".getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    public MultipartBody file(String name, String fileName, String mimeType, byte[] bytes) {
        head("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName + "\"\r\n"
                + "Content-Type: " + mimeType + "\r\n");
        write(bytes);
        write("\r\n".getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    public byte[] bytes() {
        ByteArrayOutputStream done = new ByteArrayOutputStream();
        done.writeBytes(out.toByteArray());
        done.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return done.toByteArray();
    }

    private void head(String disposition) {
        write(("--" + boundary + "\r\n" + disposition + "\r\n").getBytes(StandardCharsets.UTF_8));
    }

    private void write(byte[] bytes) {
        out.writeBytes(bytes);
    }
}
