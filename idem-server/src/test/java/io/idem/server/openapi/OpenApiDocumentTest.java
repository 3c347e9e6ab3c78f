package io.idem.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code openapi.yaml} is a valid OpenAPI 3.1 document, served without a key at {@code GET
 * /openapi.yaml}, and lists exactly the routes a live node registers (the console excepted).
 */
class OpenApiDocumentTest {
    /** Routes the document leaves out on purpose: the console is an HTML application (docs/console.md). */
    static final Set<String> UNDOCUMENTED_PREFIXES = Set.of("/console");

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theDocumentParsesAsOpenApi31WithoutAValidationMessage() {
        SwaggerParseResult result = OpenApiSpec.parse(false);
        assertThat(result.getMessages()).as("swagger-parser's messages").isEmpty();
        assertThat(result.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(OpenApiSpec.operations(result.getOpenAPI())).allSatisfy(op -> {
            assertThat(op.operation().getOperationId())
                    .as(op.route() + " operationId")
                    .isNotBlank();
            assertThat(op.operation().getSummary()).as(op.route() + " summary").isNotBlank();
            assertThat(op.operation().getResponses())
                    .as(op.route() + " responses")
                    .isNotEmpty();
        });
    }

    @Test
    void theDocumentIsServedWithoutAKeyAsYaml() {
        var reply = server.get("/openapi.yaml", null);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("application/yaml");
        assertThat(reply.raw()).isEqualTo(OpenApiSpec.text());
    }

    @Test
    void theDocumentListsExactlyTheRoutesTheServerRegisters() {
        Set<String> served = new TreeSet<>();
        server.node().routes().stream()
                .filter(route -> UNDOCUMENTED_PREFIXES.stream().noneMatch(route.path()::startsWith))
                .forEach(route -> served.add(route.method() + " " + template(route.path())));
        Set<String> documented = new TreeSet<>();
        OpenApiSpec.operations(OpenApiSpec.parse(false).getOpenAPI()).forEach(op -> documented.add(op.route()));
        Set<String> undocumented = new TreeSet<>(served);
        undocumented.removeAll(documented);
        Set<String> unserved = new TreeSet<>(documented);
        unserved.removeAll(served);
        assertThat(undocumented)
                .as("routes the server registers that idem-server/src/main/resources/openapi.yaml lacks"
                        + " (document them there, or list a prefix in UNDOCUMENTED_PREFIXES)")
                .isEmpty();
        assertThat(unserved)
                .as("routes idem-server/src/main/resources/openapi.yaml documents that the server does not register")
                .isEmpty();
    }

    /** Javalin's {@code <id>} (a parameter that may hold {@code /}) is OpenAPI's {@code {id}}. */
    static String template(String javalinPath) {
        return javalinPath.replaceAll("<([^>]+)>", "{$1}");
    }
}
