package io.idem.server.console;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The console's static files: htmx and its SSE extension from their webjars, and the console's
 * own stylesheet. Only these names are served; each is read once and cached in memory.
 */
final class ConsoleAssets {
    private record Asset(byte[] bytes, String contentType) {}

    private final Map<String, Asset> assets;

    ConsoleAssets() {
        String htmx = webjar("htmx.org");
        String sse = webjar("htmx-ext-sse");
        assets = Map.of(
                "htmx.min.js",
                        load("META-INF/resources/webjars/htmx.org/" + htmx + "/dist/htmx.min.js", "text/javascript"),
                "sse.js", load("META-INF/resources/webjars/htmx-ext-sse/" + sse + "/sse.js", "text/javascript"),
                "console.css", load("console/console.css", "text/css"));
    }

    void serve(Context ctx) {
        Asset asset = assets.get(ctx.pathParam("name"));
        if (asset == null) {
            throw new ConsoleRefusal(404, "No such file.");
        }
        ctx.header("Cache-Control", "public, max-age=3600")
                .header("X-Content-Type-Options", "nosniff")
                .contentType(asset.contentType() + "; charset=utf-8")
                .result(asset.bytes());
    }

    /** The version of a webjar on the classpath, from its Maven properties. */
    private static String webjar(String artifact) {
        String path = "META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
        try (InputStream in = ConsoleAssets.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("webjar " + artifact + " is missing from the classpath (" + path + ")");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Asset load(String path, String contentType) {
        try (InputStream in = ConsoleAssets.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("console asset missing from the classpath: " + path);
            }
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
