package io.idem.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idem.providers.http.PooledJson;
import io.idem.providers.http.VendorJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every request runs on a new virtual thread, so per-thread buffers are fresh buffers: the mappers
 * on the request path share one pool, and Javalin copies a response through a small buffer.
 */
class PooledBuffersTest {
    @Test
    void theRequestPathsMappersTakeTheirBuffersFromTheSharedPool() throws Exception {
        var strict = StrictJson.class.getDeclaredField("STRICT");
        strict.setAccessible(true);
        List<ObjectMapper> mappers =
                List.of(Json.MAPPER, Json.CANONICAL, (ObjectMapper) strict.get(null), VendorJson.MAPPER);
        assertThat(mappers)
                .allSatisfy(mapper ->
                        assertThat(mapper.getFactory()._getRecyclerPool()).isSameAs(PooledJson.BUFFERS));
    }

    @Test
    void aResponseLargerThanTheCopyBufferArrivesWhole() throws Exception {
        String large = "x".repeat(HttpServer.RESPONSE_COPY_BYTES * 5 + 17);
        Feature feature = c -> c.routes.get("/large", ctx -> Json.write(ctx, java.util.Map.of("text", large)));
        try (HttpServer server = HttpServer.start(new HttpServer.Settings("127.0.0.1", 0, 1024), List.of(feature))) {
            HttpResponse<String> reply = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.baseUrl() + "/large"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(reply.statusCode()).isEqualTo(200);
            assertThat(Json.MAPPER.readTree(reply.body()).get("text").asText()).isEqualTo(large);
        }
    }
}
