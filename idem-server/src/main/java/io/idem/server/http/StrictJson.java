package io.idem.server.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idem.providers.http.PooledJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * The one reader of JSON request bodies. It refuses, each with its own {@code 400} code, what a
 * lenient parser would quietly reinterpret: bytes that are not UTF-8 (overlong forms and encoded
 * surrogates included), trailing tokens after the value, duplicate keys (the last would win, so
 * {@code "role":"client","role":"admin"} would mean admin), nesting deeper than {@link #MAX_DEPTH},
 * and text that PostgreSQL or a vendor cannot take unchanged (U+0000, unpaired surrogates).
 * Everything a route reads from a body has passed here, so no later step (canonical hashing,
 * storage) meets an unbounded or unstorable value. Stateless and thread-safe.
 */
public final class StrictJson {
    /** The deepest nesting of objects and arrays a body may have (the body's own object is 1). */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper STRICT = new ObjectMapper(PooledJson.factory()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(64)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StrictJson() {}

    /** Parses {@code body} into a JSON object, or throws the {@link ApiError} that names what is wrong. */
    public static JsonNode readObject(byte[] body) {
        if (body.length == 0) {
            throw ApiError.badRequest("invalid_json", "request body is empty; expected a JSON object");
        }
        String text = utf8(body);
        JsonNode node = parse(text);
        if (node == null || !node.isObject()) {
            throw ApiError.badRequest("invalid_json", "request body must be a JSON object");
        }
        // Only an escape can put U+0000 or a lone surrogate into a value of valid UTF-8 input.
        if (text.indexOf("\\u") >= 0) {
            checkText(node);
        }
        return node;
    }

    private static String utf8(byte[] body) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw ApiError.badRequest("invalid_text", "request body is not valid UTF-8");
        }
    }

    private static JsonNode parse(String text) {
        try {
            return STRICT.readTree(text);
        } catch (StreamConstraintsException e) {
            if (e.getMessage() != null && e.getMessage().contains("nesting depth")) {
                throw ApiError.badRequest(
                        "nesting_too_deep", "request body nests objects and arrays deeper than " + MAX_DEPTH);
            }
            throw ApiError.badRequest("invalid_json", "request body has a number or string over the size limit");
        } catch (JsonParseException e) {
            String message = e.getOriginalMessage();
            if (message != null && message.startsWith("Duplicate field")) {
                throw ApiError.badRequest("duplicate_key", "request body repeats a key: " + quotedField(message));
            }
            throw ApiError.badRequest("invalid_json", "request body is not valid JSON");
        } catch (IOException e) {
            // FAIL_ON_TRAILING_TOKENS reports as a mismatched input, not a parse error.
            throw ApiError.badRequest(
                    "invalid_json", "request body is not valid JSON (one JSON object, nothing after it)");
        }
    }

    // Jackson's message is "Duplicate field 'name'"; the name is the client's own text, clipped.
    private static String quotedField(String message) {
        String name = message.substring("Duplicate field".length()).strip();
        return name.length() > 70 ? name.substring(0, 70) + "…'" : name;
    }

    /** Walks the tree without recursion and refuses text no store or vendor can take unchanged. */
    public static void checkText(JsonNode root) {
        Deque<Map.Entry<String, JsonNode>> pending = new ArrayDeque<>();
        pending.push(Map.entry("", root));
        while (!pending.isEmpty()) {
            var next = pending.pop();
            String path = next.getKey();
            JsonNode node = next.getValue();
            if (node.isTextual()) {
                refuseBadText(node.textValue(), path.isEmpty() ? "body" : path);
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    var field = it.next();
                    String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                    refuseBadText(field.getKey(), "a key in " + (path.isEmpty() ? "body" : path));
                    pending.push(Map.entry(fieldPath, field.getValue()));
                }
            } else if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    pending.push(Map.entry(path + "[" + i + "]", node.get(i)));
                }
            }
        }
    }

    /** Refuses U+0000 and unpaired surrogates in {@code text}, naming {@code where} (clipped). */
    public static void refuseBadText(String text, String where) {
        String problem = textProblem(text);
        if (problem != null) {
            String field = where.length() > 80 ? where.substring(0, 80) + "…" : where;
            throw ApiError.badRequest("invalid_text", field + " contains " + problem);
        }
    }

    /** What makes {@code text} unstorable, or {@code null} when it is fine. */
    public static String textProblem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return "U+0000, which is not allowed in text";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + ")";
            }
            if (Character.isLowSurrogate(c)) {
                return "an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + ")";
            }
        }
        return null;
    }
}
