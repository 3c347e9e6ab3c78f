package io.idem.providers.kling;

import io.idem.providers.http.Credential;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import io.idem.providers.http.VendorText;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Kling's endpoints under the provider's base URL, each request signed with a fresh token from the
 * access key ({@code api_key_env}) and the secret key ({@code secret_key_env}). Thread-safe.
 */
final class KlingApi {
    private final VendorCalls calls;
    private final UnaryOperator<String> environment;
    private final InstantSource clock;
    private final String base;

    KlingApi(VendorCalls calls, UnaryOperator<String> environment, InstantSource clock) {
        this.calls = calls;
        this.environment = environment;
        this.clock = clock;
        this.base = VendorCalls.trimmedBase(calls.settings().baseUrl());
    }

    VendorCalls calls() {
        return calls;
    }

    /** Why no token can be signed now, if one of the two keys is not usable. */
    Optional<Credential.Missing> missingKey() {
        if (calls.credential() instanceof Credential.Missing missing) {
            return Optional.of(missing);
        }
        if (calls.credential() instanceof Credential.None) {
            return Optional.of(new Credential.Missing("api_key_env", "Kling needs api_key_env (the access key)"));
        }
        return switch (secretKey()) {
            case Credential.Missing missing -> Optional.of(missing);
            case Credential.None none ->
                Optional.of(new Credential.Missing("secret_key_env", "Kling needs secret_key_env (the secret key)"));
            case Credential.Bearer bearer -> Optional.empty();
        };
    }

    private Credential secretKey() {
        return Credential.fromVariable(calls.settings().secretKeyEnv(), environment);
    }

    /** A token signed now, as a bearer credential (callers checked {@link #missingKey}). */
    private Credential token() {
        if (calls.credential() instanceof Credential.Bearer access && secretKey() instanceof Credential.Bearer secret) {
            return new Credential.Bearer(KlingToken.sign(access.secret(), secret.secret(), clock.instant()));
        }
        throw new IllegalStateException("Kling keys are not usable");
    }

    /** What makes Kling's words safe to keep: the node's secrets and both keys hidden. */
    VendorText text() {
        return calls.text().hiding(secretKey());
    }

    VendorExchange submit(String action, Duration timeout, SendTracker body) {
        return calls.send(VendorCalls.billablePost(uri("/v1/videos/" + action), timeout, body), token(), body);
    }

    /** The task {@code id}, {@code <action>/<task_id or external_task_id>}. */
    VendorExchange query(String id, Duration timeout) {
        int slash = id.indexOf('/');
        String path = "/v1/videos/" + id.substring(0, slash) + "/"
                + URLEncoder.encode(id.substring(slash + 1), StandardCharsets.UTF_8);
        return get(path, timeout);
    }

    VendorExchange get(String pathAndQuery, Duration timeout) {
        return calls.ask(VendorCalls.lookup(uri(pathAndQuery), timeout).GET(), token());
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    /** The task a 200 answer carries, if any. */
    static Optional<KlingTask> task(VendorExchange exchange) {
        return exchange instanceof VendorExchange.Answered answered
                        && answered.response().statusCode() == 200
                ? KlingTask.parse(answered.response().body())
                : Optional.empty();
    }
}
