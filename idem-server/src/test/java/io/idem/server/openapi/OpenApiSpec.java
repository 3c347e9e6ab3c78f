package io.idem.server.openapi;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code openapi.yaml} as swagger-parser reads it, and its operations as (method, path) pairs. */
final class OpenApiSpec {
    private OpenApiSpec() {}

    /** One documented operation. */
    record Documented(String method, String path, Operation operation) {
        String route() {
            return method + " " + path;
        }
    }

    static String text() {
        return new String(OpenApiDocument.load(), StandardCharsets.UTF_8);
    }

    /** The document with every {@code $ref} resolved in place (so examples and schemas read directly). */
    static SwaggerParseResult parse(boolean resolveFully) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(resolveFully);
        return new OpenAPIV3Parser().readContents(text(), null, options);
    }

    static List<Documented> operations(OpenAPI api) {
        List<Documented> out = new ArrayList<>();
        api.getPaths()
                .forEach((path, item) -> item.readOperationsMap()
                        .forEach((method, operation) -> out.add(new Documented(name(method), path, operation))));
        return out;
    }

    private static String name(PathItem.HttpMethod method) {
        return method.name().toUpperCase(Locale.ROOT);
    }
}
