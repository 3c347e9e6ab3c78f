package io.idem.providers.runware;

import io.idem.providers.http.Credential;
import io.idem.providers.http.SendTracker;
import io.idem.providers.http.VendorCalls;
import io.idem.providers.http.VendorExchange;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * Asks Runware about one of our tasks ({@code getResponse} by the UUID we chose). A lookup cannot
 * bill, so a failed one is simply {@link RunwareTaskState.Unknown}. Thread-safe.
 */
final class RunwareLookup {
    private final VendorCalls calls;
    private final URI endpoint;

    RunwareLookup(VendorCalls calls, URI endpoint) {
        this.calls = calls;
        this.endpoint = endpoint;
    }

    RunwareTaskState state(String task, Credential credential, Duration timeout) {
        byte[] body = RunwareTasks.getResponse(task);
        SendTracker tracker = SendTracker.track(body);
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .version(HttpClient.Version.HTTP_1_1)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(tracker);
        return switch (calls.send(request, credential, tracker)) {
            case VendorExchange.Failed failed -> new RunwareTaskState.Unknown("lookup failed: " + failed.detail());
            case VendorExchange.Answered answered ->
                RunwareTaskState.of(
                        answered.response().statusCode(),
                        RunwareReply.parse(answered.response().body()),
                        task);
        };
    }
}
