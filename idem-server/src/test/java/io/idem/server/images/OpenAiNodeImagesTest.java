package io.idem.server.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.NodeScripts;
import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The official {@code openai} npm client, unmodified, calls {@code images.generate} with quality and
 * style and {@code images.edit} with a PNG file ({@code src/test/node/openai-images.mjs}). Skipped
 * only when there is no {@code node} on the PATH.
 */
class OpenAiNodeImagesTest {
    @Test
    void theOfficialClientGeneratesAndEditsImagesWithTheirParameters() throws Exception {
        NodeScripts.assumeInstalled();
        try (TestServer server = TestServer.start()) {
            JsonNode seen = NodeScripts.run("openai-images.mjs", server, Map.of(), 120);

            assertThat(seen.at("/generate/images").asInt()).as(seen.toString()).isEqualTo(1);
            assertThat(seen.at("/generate/b64").asBoolean()).isTrue();
            JsonNode generated = server.get(
                            "/v1/jobs/" + seen.at("/generate/job").asText(), TestServer.ADMIN_KEY)
                    .body();
            assertThat(generated.at("/image/quality").asText()).isEqualTo("high");
            assertThat(generated.at("/image/style").asText()).isEqualTo("vivid");

            assertThat(seen.at("/edit/images").asInt()).isEqualTo(1);
            assertThat(seen.at("/edit/url").asText()).contains("/v1/assets/");
            JsonNode edited = server.get("/v1/jobs/" + seen.at("/edit/job").asText(), TestServer.ADMIN_KEY)
                    .body();
            assertThat(edited.at("/image/quality").asText()).isEqualTo("low");
            assertThat(edited.at("/image/inputs/0/mime_type").asText()).isEqualTo("image/png");

            assertThat(seen.at("/bad/raised").asBoolean()).isTrue();
            assertThat(seen.at("/bad/status").asInt()).isEqualTo(400);
            assertThat(seen.at("/bad/code").asText()).isEqualTo("invalid_quality");
        }
    }
}
