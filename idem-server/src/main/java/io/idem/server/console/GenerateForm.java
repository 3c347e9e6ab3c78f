package io.idem.server.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.routing.Routing;
import io.idem.server.http.Json;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the Generate page's form holds: prompt, lane, per-call timeout and one failure mode per
 * fake provider. It becomes the same JSON body a client would send to {@code POST /v1/jobs}.
 */
record GenerateForm(String prompt, String lane, int timeoutSeconds, Map<String, FailureMode> modes) {
    static final String DEFAULT_PROMPT = "A lighthouse over a cloud ocean";
    static final int DEFAULT_TIMEOUT = 3;

    GenerateForm {
        modes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(modes));
    }

    static GenerateForm defaults(Routing routing) {
        Map<String, FailureMode> modes = new LinkedHashMap<>();
        fakeProviders(routing).forEach(name -> modes.put(name, FailureMode.NORMAL));
        return new GenerateForm(DEFAULT_PROMPT, routing.defaultLane(), DEFAULT_TIMEOUT, modes);
    }

    /** Reads the submitted form; unknown lanes, modes and bad numbers are refused with a message. */
    static GenerateForm from(Context ctx, Routing routing) {
        String prompt = ctx.formParam("prompt");
        String lane = ctx.formParam("lane");
        if (lane == null || !routing.lanes().containsKey(lane)) {
            throw new ConsoleRefusal(400, "Choose one of the configured lanes.");
        }
        String timeout = ctx.formParam("timeout");
        if (timeout == null || !timeout.matches("[0-9]{1,3}")) {
            throw new ConsoleRefusal(400, "The timeout per provider call must be a whole number of seconds.");
        }
        Map<String, FailureMode> modes = new LinkedHashMap<>();
        for (String name : fakeProviders(routing)) {
            String value = ctx.formParam("simulate_" + name);
            modes.put(name, value == null ? FailureMode.NORMAL : FailureMode.fromValue(value));
        }
        return new GenerateForm(prompt == null ? "" : prompt, lane, Integer.parseInt(timeout), modes);
    }

    /** The providers that accept {@code simulate} directives (the fake vendors), in config order. */
    static java.util.List<String> fakeProviders(Routing routing) {
        return routing.providers().values().stream()
                .filter(p -> p.acceptsSimulate())
                .map(p -> p.name())
                .toList();
    }

    FailureMode modeOf(String provider) {
        return modes.getOrDefault(provider, FailureMode.NORMAL);
    }

    /** The {@code POST /v1/jobs} body this form stands for. */
    ObjectNode toBody() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("prompt", prompt);
        body.put("lane", lane);
        body.put("timeout", timeoutSeconds);
        ObjectNode simulate = body.putObject("simulate");
        modes.forEach((provider, mode) -> {
            if (mode.simulates()) {
                simulate.put(provider, mode.value());
            }
        });
        return body;
    }
}
