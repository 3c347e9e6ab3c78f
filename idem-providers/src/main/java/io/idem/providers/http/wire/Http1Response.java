package io.idem.providers.http.wire;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/** An answer read by {@link Http1Client}. */
record Http1Response<T>(
        int statusCode, HttpRequest request, HttpHeaders headers, T body, Optional<SSLSession> sslSession)
        implements HttpResponse<T> {
    @Override
    public Optional<HttpResponse<T>> previousResponse() {
        return Optional.empty();
    }

    @Override
    public URI uri() {
        return request.uri();
    }

    @Override
    public HttpClient.Version version() {
        return HttpClient.Version.HTTP_1_1;
    }
}
