package io.idem.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import io.idem.server.http.Json;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.List;
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

    private static final String DOCUMENT = "idem-server/src/main/resources/openapi.yaml";

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
        List<String> differences = new ArrayList<>();
        served.stream()
                .filter(route -> !documented.contains(route))
                .forEach(route -> differences.add(route + ": registered by the server, missing from " + DOCUMENT
                        + " (document it there, or list its prefix in UNDOCUMENTED_PREFIXES)"));
        documented.stream()
                .filter(route -> !served.contains(route))
                .forEach(route ->
                        differences.add(route + ": documented in " + DOCUMENT + ", not registered by the server"));
        assertThat(differences).as("routes of the server and of the document").isEmpty();
    }

    @Test
    void everyJsonResponseExampleHasTheFieldsItsSchemaRequires() {
        List<String> failures = new ArrayList<>();
        int examples = 0;
        for (var op : OpenApiSpec.operations(OpenApiSpec.parse(true).getOpenAPI())) {
            for (var response : op.operation().getResponses().entrySet()) {
                var json = response.getValue().getContent() == null
                        ? null
                        : response.getValue().getContent().get("application/json");
                if (json == null || json.getExamples() == null) {
                    continue;
                }
                for (var example : json.getExamples().entrySet()) {
                    examples++;
                    RequiredFields.missing(
                                    json.getSchema(),
                                    Json.MAPPER.valueToTree(example.getValue().getValue()))
                            .ifPresent(m -> failures.add(
                                    op.route() + " " + response.getKey() + " example " + example.getKey() + ": " + m));
                }
            }
        }
        assertThat(failures)
                .as("response examples that do not fit their schema")
                .isEmpty();
        assertThat(examples).as("response examples checked").isGreaterThanOrEqualTo(8);
    }

    /** Javalin's {@code <id>} (a parameter that may hold {@code /}) is OpenAPI's {@code {id}}. */
    static String template(String javalinPath) {
        return javalinPath.replaceAll("<([^>]+)>", "{$1}");
    }
}
