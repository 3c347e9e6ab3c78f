package io.idem.server.openapi;

import io.idem.server.http.Feature;
import io.javalin.config.JavalinConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.yaml}: the OpenAPI 3.1 description of the HTTP API, served from the classpath
 * resource {@value #RESOURCE} without a key, like {@code /v1/status}: it names routes and shapes,
 * never a provider, a key or a price. Read once at construction; thread-safe.
 */
public final class OpenApiDocument implements Feature {
    /** Where the document lives on the classpath (and so in the repository's resources). */
    public static final String RESOURCE = "/openapi.yaml";
    /** The media type of YAML (RFC 9512). */
    static final String CONTENT_TYPE = "application/yaml";

    private final byte[] document;

    public OpenApiDocument() {
        this.document = load();
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get(
                RESOURCE,
                ctx -> ctx.contentType(CONTENT_TYPE)
                        .header("Cache-Control", "no-cache")
                        .result(document));
    }

    /** The document's text, as served. */
    public static byte[] load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCE + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
