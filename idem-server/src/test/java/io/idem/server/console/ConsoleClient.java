package io.idem.server.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A browser stand-in for the console over plain HTTP: a cookie jar, form posts, the CSRF token. */
final class ConsoleClient {
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;
    private final Map<String, String> headers;

    ConsoleClient(String base) {
        this(base, null, Map.of());
    }

    /**
     * A browser that connects from a given local address (null: any) and sends these headers on
     * every page and form post, as a proxy in front of Idem would add them.
     */
    ConsoleClient(String base, InetAddress from, Map<String, String> headers) {
        this.base = base;
        this.headers = Map.copyOf(headers);
        HttpClient.Builder builder = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(5));
        this.http = (from == null ? builder : builder.localAddress(from)).build();
    }

    /** Signs in through the form, as a person would. */
    static ConsoleClient signedIn(String base, String key) {
        ConsoleClient client = new ConsoleClient(base);
        String csrf = client.csrfOf(client.get("/console/login").body());
        HttpResponse<String> reply = client.post("/console/login", Map.of("_csrf", csrf, "api_key", key));
        if (reply.statusCode() != 200 || !reply.uri().getPath().equals("/console/generate")) {
            throw new IllegalStateException("sign-in failed: " + reply.statusCode() + " at " + reply.uri());
        }
        return client;
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    HttpResponse<String> post(String path, Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A form post carrying this session's CSRF token (read from a console page). */
    HttpResponse<String> postWithToken(String path, Map<String, String> form) {
        Map<String, String> withToken = new LinkedHashMap<>(form);
        withToken.put("_csrf", csrfOf(get("/console/providers").body()));
        return post(path, withToken);
    }

    /** The first event of a live stream (the stream itself stays open; this reads only its start). */
    String firstEvent(String path) {
        try {
            HttpResponse<java.io.InputStream> reply = http.send(
                    HttpRequest.newBuilder(URI.create(base + path))
                            .header("Accept", "text/event-stream")
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            if (reply.statusCode() != 200) {
                reply.body().close();
                return "HTTP " + reply.statusCode();
            }
            try (var reader =
                    new java.io.BufferedReader(new java.io.InputStreamReader(reply.body(), StandardCharsets.UTF_8))) {
                StringBuilder event = new StringBuilder();
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.isEmpty() && !event.isEmpty()) {
                        return event.toString();
                    }
                    event.append(line).append('\n');
                }
                return event.toString();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Map<String, String> cookieValues() {
        return cookies.getCookieStore().getCookies().stream()
                .collect(Collectors.toMap(HttpCookie::getName, HttpCookie::getValue, (a, b) -> b));
    }

    String csrfOf(String page) {
        Matcher m = CSRF.matcher(page);
        if (!m.find()) {
            throw new IllegalStateException("no CSRF token on the page");
        }
        return m.group(1);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        headers.forEach(request::header);
        try {
            return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
